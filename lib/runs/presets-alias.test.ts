import { describe, expect, it } from "vitest";
import { presetPath } from "./presets";

describe("dashboard presets under the original's folder name", () => {
  it("accepts the alias as a dashboard preset, still confined to configs/", () => {
    const root = process.cwd();
    expect(presetPath(root, "livemathematicianbench/sample.yaml")).toBe(presetPath(root, "livemath/sample.yaml"));
    expect(() => presetPath(root, "livemathematicianbench/missing.yaml")).toThrow(/unknown preset/);
  });
});

import { describe, expect, it } from "vitest";
import { aliasedConfigPath } from "./config-alias";
import { loadRunConfig } from "./load";

describe("configs/livemathematicianbench/ (the original's folder name)", () => {
  it("reads configs/livemath/ for the CLI's --config", () => {
    expect(aliasedConfigPath("configs/livemathematicianbench/default.yaml")).toBe("configs/livemath/default.yaml");
    const viaAlias = loadRunConfig("configs/livemathematicianbench/sample.yaml");
    const direct = loadRunConfig("configs/livemath/sample.yaml");
    expect(viaAlias.config).toEqual(direct.config);
    expect(viaAlias.config.env.name).toBe("livemath");
  });

  it("leaves existing paths and names that are not aliases alone", () => {
    expect(aliasedConfigPath("configs/searchqa/sample.yaml")).toBe("configs/searchqa/sample.yaml");
    expect(aliasedConfigPath("configs/nosuchbench/default.yaml")).toBe("configs/nosuchbench/default.yaml");
  });
});

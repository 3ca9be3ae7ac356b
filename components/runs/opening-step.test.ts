import { describe, expect, it } from "vitest";
import { openingStep } from "./opening-step";

describe("openingStep", () => {
  it.each([
    ["7", 12, 7],
    [null, 12, 12],
    [undefined, null, null],
    ["", 3, 3],
    ["0", 3, 3],
    ["-2", 3, 3],
    ["abc", 3, 3],
    ["4abc", 3, 4], // as URLSearchParams readers parse it
  ] as const)("?step=%s with latest step %s opens on %s", (param, latest, expected) => {
    expect(openingStep(param, latest)).toBe(expected);
  });
});

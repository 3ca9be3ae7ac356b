import { describe, expect, it } from "vitest";
import { circleCentres, circlesPath } from "./marks-path";

describe("circlesPath", () => {
  it("draws one closed circle per centre, in order, and skips non-finite ones", () => {
    const d = circlesPath(
      [
        { x: 10, y: 20 },
        { x: Number.NaN, y: 5 },
        { x: 33.333, y: 7.25 },
      ],
      2,
    );
    expect(d).toBe("M8 20a2 2 0 1 0 4 0a2 2 0 1 0 -4 0M31.3 7.3a2 2 0 1 0 4 0a2 2 0 1 0 -4 0");
    expect(circleCentres(d)).toEqual([
      { x: 10, y: 20 },
      { x: 33.3, y: 7.3 },
    ]);
  });
  it("is empty without centres", () => {
    expect(circlesPath([], 3)).toBe("");
    expect(circleCentres("")).toEqual([]);
  });
});

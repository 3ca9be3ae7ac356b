import { describe, expect, it } from "vitest";
import { GRID } from "./chart-style";

describe("GRID", () => {
  it("draws horizontal lines only and gives recharts no vertical places to compute", () => {
    // Without the generator, recharts measures a tick label per data point for lines it does not draw
    // (≈430 forced layouts on a 1,000-step run page).
    expect(GRID.vertical).toBe(false);
    expect(GRID.verticalCoordinatesGenerator()).toEqual([]);
  });
});

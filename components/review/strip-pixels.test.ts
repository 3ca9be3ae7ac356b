import { describe, expect, it } from "vitest";
import { STRIP_HEIGHT, stripPixels } from "./strip-pixels";

const at = (px: Uint8ClampedArray, width: number, x: number, y: number) =>
  Array.from(px.slice((y * width + x) * 4, (y * width + x) * 4 + 4));

describe("stripPixels", () => {
  it("draws the current result as the thick band and each measurement as the thin band", () => {
    const px = stripPixels("01", "e.", 2);
    expect(px.length).toBe(2 * STRIP_HEIGHT * 4);
    expect(at(px, 2, 0, 0)).toEqual([0xef, 0x44, 0x44, 255]); // current wrong
    expect(at(px, 2, 1, 7)).toEqual([0x10, 0xb9, 0x81, 255]); // current correct
    expect(at(px, 2, 0, 8)).toEqual([0, 0, 0, 0]); // the gap between the bands
    expect(at(px, 2, 1, 9)).toEqual([0, 0, 0, 0]);
    expect(at(px, 2, 0, 10)).toEqual([0xf5, 0x9e, 0x0b, 179]); // measured: not answered
    expect(at(px, 2, 1, 13)).toEqual([0xe5, 0xe7, 0xeb, 179]); // not evaluated there
  });
  it("draws a missing code as not evaluated", () => {
    const px = stripPixels("", "", 1);
    expect(at(px, 1, 0, 0)).toEqual([0xe5, 0xe7, 0xeb, 255]);
    expect(at(px, 1, 0, 12)).toEqual([0xe5, 0xe7, 0xeb, 179]);
  });
});

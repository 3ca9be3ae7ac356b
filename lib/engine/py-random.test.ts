import { describe, expect, it } from "vitest";
import { PyRandom } from "./py-random";

// Expected values from CPython: `r = random.Random(seed); [r.randrange(n) for _ in range(k)]`.
describe("PyRandom draws below n", () => {
  it("randbelow gives CPython's randrange for small, one-bit and 32-bit bounds", () => {
    const r = new PyRandom(20260412);
    expect(Array.from({ length: 12 }, () => r.randbelow(200))).toEqual([
      41, 10, 100, 34, 165, 82, 20, 62, 26, 150, 182, 73,
    ]);
    const s = new PyRandom(7);
    expect([s.randbelow(1), s.randbelow(1), s.randbelow(1)]).toEqual([0, 0, 0]);
    expect([s.randbelow(2 ** 31 + 5), s.randbelow(2 ** 31 + 5), s.randbelow(2 ** 31 + 5)]).toEqual([
      207388624, 311111475, 404285457,
    ]);
    expect(Array.from({ length: 6 }, () => s.randbelow(3))).toEqual([1, 2, 0, 2, 0, 0]);
  });

  it("fillBelow draws exactly what as many randbelow calls draw, and leaves the generator at the same point", () => {
    const one = new PyRandom(10001);
    const many = new PyRandom(10001);
    const expected = Array.from({ length: 400 }, () => one.randbelow(200));
    const out = new Uint32Array(400);
    many.fillBelow(200, out);
    expect(Array.from(out)).toEqual(expected);
    expect(Array.from(out.slice(-5))).toEqual([82, 181, 79, 57, 198]);
    expect(many.randbelow(1000)).toBe(one.randbelow(1000));
  });

  it("refuses a bound outside 1..2^32-1", () => {
    expect(() => new PyRandom(1).randbelow(0)).toThrow(/randbelow needs/);
    expect(() => new PyRandom(1).fillBelow(2 ** 32, new Uint32Array(1))).toThrow(/randbelow needs/);
    expect(() => new PyRandom(1).fillBelow(1.5, new Uint32Array(1))).toThrow(/randbelow needs/);
  });
});

import { describe, expect, it } from "vitest";
import { PyRandom } from "./py-random";
import { AUTONOMOUS_LR, createScheduler, pyRound } from "./schedule";

function run(kind: string | undefined, maxLr: number, minLr: number, totalSteps: number, n: number): number[] {
  const s = createScheduler(kind, { maxLr, minLr, totalSteps });
  return Array.from({ length: n }, () => s.step());
}

describe("pyRound", () => {
  it("rounds exact halves to even, like Python round()", () => {
    expect([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5].map(pyRound)).toEqual([0, 2, 2, 4, 0, -2, -2]);
  });

  it("rounds the exact double, so values just off .5 go the obvious way", () => {
    expect(pyRound(2.5000000000000004)).toBe(3);
    expect(pyRound(2.4999999999999996)).toBe(2);
    expect(pyRound(3.2)).toBe(3);
    expect(pyRound(-3.7)).toBe(-4);
  });

  it("refuses non-finite input like Python", () => {
    expect(() => pyRound(NaN)).toThrow(RangeError);
    expect(() => pyRound(Infinity)).toThrow(RangeError);
  });
});

describe("scheduler reference values (spec §8.1)", () => {
  it("cosine 10→2 over 4 steps", () => {
    expect(run("cosine", 10, 2, 4, 4)).toEqual([9, 6, 3, 2]);
  });

  it("linear 10→2 over 4 steps", () => {
    expect(run("linear", 10, 2, 4, 4)).toEqual([8, 6, 4, 2]);
  });

  it("cosine 100→0 starts at 85", () => {
    expect(run("cosine", 100, 0, 4, 1)).toEqual([85]);
  });

  it("linear 4→2 over 8 rounds 3.5 up to 4 and 2.5 down to 2", () => {
    const s = createScheduler("linear", { maxLr: 4, minLr: 2, totalSteps: 8 });
    expect(s.peek(2)).toBe(4);
    expect(s.peek(6)).toBe(2);
  });

  it("default SearchQA recipe: cosine 4→2 over 40 steps", () => {
    const values = run("cosine", 4, 2, 40, 40);
    values.forEach((v, i) => {
      const step = i + 1;
      expect(v).toBe(step <= 13 ? 4 : step <= 26 ? 3 : 2);
    });
  });

  // Produced once with CPython from the same formulas; every row contains at least one exact .5 tie.
  it.each([
    ["linear", 4, 2, 4, [4, 3, 2, 2, 2, 2]],
    ["linear", 4, 2, 12, [4, 4, 4, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2]],
    ["linear", 100, 0, 8, [88, 75, 62, 50, 38, 25, 12, 0, 0, 0]],
    ["linear", 9, 0, 12, [8, 8, 7, 6, 5, 4, 4, 3, 2, 2, 1, 0, 0, 0]],
    ["linear", 11, 4, 10, [10, 10, 9, 8, 8, 7, 6, 5, 5, 4, 4, 4]],
    ["cosine", 4, 2, 3, [4, 2, 2, 2, 2]],
    ["cosine", 4, 2, 12, [4, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2]],
    ["cosine", 9, 0, 12, [9, 8, 8, 7, 6, 4, 3, 2, 1, 1, 0, 0, 0, 0]],
    ["cosine", 11, 4, 10, [11, 10, 10, 9, 8, 6, 5, 5, 4, 4, 4, 4]],
  ] as const)("%s %i→%i over %i matches CPython", (kind, maxLr, minLr, total, expected) => {
    expect(run(kind, maxLr, minLr, total, expected.length)).toEqual(expected);
  });
});

describe("scheduler properties", () => {
  const rng = new PyRandom(2024);
  const configs = Array.from({ length: 60 }, () => {
    const minLr = rng.randbelow(6);
    return { minLr, maxLr: minLr + rng.randbelow(12), totalSteps: 2 + rng.randbelow(50) };
  });

  it.each(["linear", "cosine"])("%s is non-increasing, bounded and plateaus at min after T", (kind) => {
    for (const c of configs) {
      const values = run(kind, c.maxLr, c.minLr, c.totalSteps, c.totalSteps + 5);
      for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThanOrEqual(values[i - 1]!);
      for (const v of values) {
        expect(v).toBeGreaterThanOrEqual(c.minLr);
        expect(v).toBeLessThanOrEqual(c.maxLr);
      }
      expect(values.slice(c.totalSteps - 1)).toEqual(Array(6).fill(c.minLr));
    }
  });

  it.each(["linear", "cosine"])("%s with T of 0 or 1 always gives max", (kind) => {
    expect(run(kind, 7, 2, 0, 3)).toEqual([7, 7, 7]);
    expect(run(kind, 7, 2, 1, 3)).toEqual([7, 7, 7]);
  });

  it.each(["linear", "cosine"])("%s with max == min is constant", (kind) => {
    expect(run(kind, 3, 3, 10, 12)).toEqual(Array(12).fill(3));
  });

  it("constant always gives max and autonomous always gives 999", () => {
    expect(run("constant", 5, 1, 10, 12)).toEqual(Array(12).fill(5));
    expect(run("autonomous", 5, 1, 10, 3)).toEqual([AUTONOMOUS_LR, AUTONOMOUS_LR, AUTONOMOUS_LR]);
  });

  it("state round-trips give identical next values", () => {
    const a = createScheduler("cosine", { maxLr: 10, minLr: 2, totalSteps: 8 });
    a.step();
    a.step();
    a.step();
    const b = createScheduler("cosine", { maxLr: 10, minLr: 2, totalSteps: 8 });
    b.load(JSON.parse(JSON.stringify(a.state())) as { current_step: number });
    expect(b.state()).toEqual({ current_step: 3 });
    expect([b.step(), b.step(), b.step()]).toEqual([a.step(), a.step(), a.step()]);
  });

  it("loading a state without current_step resets to 0", () => {
    const s = createScheduler("linear", { maxLr: 10, minLr: 2, totalSteps: 4 });
    s.step();
    s.load({});
    expect(s.state()).toEqual({ current_step: 0 });
    expect(s.step()).toBe(8);
  });

  it("peek does not advance the counter", () => {
    const s = createScheduler("linear", { maxLr: 10, minLr: 2, totalSteps: 4 });
    expect(s.peek(3)).toBe(4);
    expect(s.state()).toEqual({ current_step: 0 });
  });
});

describe("createScheduler", () => {
  it("defaults to constant when no kind is given", () => {
    const s = createScheduler(undefined, { maxLr: 4, minLr: 2, totalSteps: 10 });
    expect(s.kind).toBe("constant");
    expect(s.step()).toBe(4);
  });

  it("rejects an unknown kind, naming it and the allowed kinds", () => {
    expect(() => createScheduler("exponential", { maxLr: 4, minLr: 2, totalSteps: 10 })).toThrow(
      /"exponential".*constant, linear, cosine, autonomous/,
    );
  });
});

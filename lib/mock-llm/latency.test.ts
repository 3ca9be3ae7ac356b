import { describe, expect, it } from "vitest";
import {
  createDistributionPicker,
  describeLatencyDist,
  parseLatencyDist,
  sampleLatency,
  stageOfPrompt,
  type LatencyDist,
} from "./latency";
import { parseMockLlmArgs } from "./cli-args";
import { analystPrompt, chatBody, postJson, targetPrompt, useMockServer } from "./testing";

const targetSystem = targetPrompt(true).system;
const analystPromptSystem = analystPrompt().system;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;

describe("latency distributions", () => {
  it("a lognormal's median and spread follow its parameters; the slow tail is its fraction", () => {
    const dist: LatencyDist = { kind: "lognormal", medianMs: 1000, sigma: 1, slowFraction: 0.05, slowFactor: 10 };
    const pick = createDistributionPicker(dist, undefined, 7)!;
    const xs = Array.from({ length: 4000 }, (_, i) => pick(targetSystem, `prompt ${i}`));
    expect(quantile(xs, 0.5)).toBeGreaterThan(850);
    expect(quantile(xs, 0.5)).toBeLessThan(1200);
    // exp(1.2816) ≈ 3.6: the 90th percentile of lognormal(σ=1) is 3.6 × the median, raised a little by the tail.
    expect(quantile(xs, 0.9)).toBeGreaterThan(3000);
    expect(quantile(xs, 0.9)).toBeLessThan(5500);
    const noTail = createDistributionPicker({ ...dist, slowFraction: 0 }, undefined, 7)!;
    const ys = Array.from({ length: 4000 }, (_, i) => noTail(targetSystem, `prompt ${i}`));
    const slowed = xs.filter((x, i) => x > ys[i]! * 5).length;
    expect(slowed / 4000).toBeGreaterThan(0.035);
    expect(slowed / 4000).toBeLessThan(0.065);
  });

  it("sigma 0 is the median; fixed is fixed; the slow factor multiplies", () => {
    expect(sampleLatency({ kind: "lognormal", medianMs: 300, sigma: 0 }, [0.3, 0.9, 0.5])).toBe(300);
    expect(sampleLatency({ kind: "fixed", ms: 42 }, [0.1, 0.2, 0.3])).toBe(42);
    const slow: LatencyDist = { kind: "lognormal", medianMs: 300, sigma: 0, slowFraction: 0.5, slowFactor: 4 };
    expect(sampleLatency(slow, [0.3, 0.9, 0.2])).toBe(1200);
    expect(sampleLatency(slow, [0.3, 0.9, 0.7])).toBe(300);
  });

  it("draws are seeded per prompt and occurrence: order does not matter, a repeat draws afresh", () => {
    const dist: LatencyDist = { kind: "lognormal", medianMs: 500, sigma: 1 };
    const a = createDistributionPicker(dist, undefined, 3)!;
    const b = createDistributionPicker(dist, undefined, 3)!;
    const forward = ["p1", "p2", "p3"].map((p) => a(targetSystem, p));
    const backward = ["p3", "p2", "p1"].map((p) => b(targetSystem, p)).reverse();
    expect(backward).toEqual(forward);
    const repeats = Array.from({ length: 6 }, () => a(targetSystem, "p1"));
    expect(new Set([forward[0], ...repeats]).size).toBeGreaterThan(4);
    const other = createDistributionPicker(dist, undefined, 4)!;
    expect(["p1", "p2", "p3"].map((p) => other(targetSystem, p))).not.toEqual(forward);
  });

  it("a request duplicating one in flight (a hedge) draws apart: later requests keep their delays", () => {
    const dist: LatencyDist = { kind: "lognormal", medianMs: 500, sigma: 1 };
    const plain = createDistributionPicker(dist, undefined, 3)!;
    const hedged = createDistributionPicker(dist, undefined, 3)!;
    const once = (pick: typeof plain, p: string) => {
      const ms = pick(targetSystem, p);
      pick.done(p);
      return ms;
    };
    const first = hedged(targetSystem, "p1");
    const hedge = hedged(targetSystem, "p1"); // sent while the first is in flight
    hedged.done("p1");
    hedged.done("p1");
    expect(first).toBe(once(plain, "p1"));
    expect(hedge).not.toBe(first);
    // The prompt's next (fresh) request gets its second occurrence's delay in both runs.
    expect(once(hedged, "p1")).toBe(once(plain, "p1"));
  });

  it("per-stage distributions win over the shared one", () => {
    expect(stageOfPrompt(targetSystem)).toBe("rollout");
    expect(stageOfPrompt(analystPromptSystem)).toBe("analyst");
    const pick = createDistributionPicker({ kind: "fixed", ms: 10 }, { analyst: { kind: "fixed", ms: 900 } }, 1)!;
    expect(pick(targetSystem, "x")).toBe(10);
    expect(pick(analystPromptSystem, "y")).toBe(900);
    expect(createDistributionPicker(undefined, {}, 1)).toBeNull();
  });

  it("parses the CLI form and names the bad part", () => {
    expect(parseLatencyDist("fixed:250", "--latency")).toEqual({ kind: "fixed", ms: 250 });
    expect(parseLatencyDist("lognormal:1000:1:0.02:8", "--latency")).toEqual({
      kind: "lognormal",
      medianMs: 1000,
      sigma: 1,
      slowFraction: 0.02,
      slowFactor: 8,
    });
    expect(() => parseLatencyDist("gamma:3", "--latency")).toThrow(/--latency: expected fixed:MS or lognormal/);
    expect(() => parseLatencyDist("lognormal:1000:9", "--latency")).toThrow(/sigma must be between 0 and 5/);
    expect(() => parseLatencyDist("lognormal:1000:1:1.5", "--latency")).toThrow(/slow-tail fraction/);
    expect(() => parseLatencyDist("fixed:-3", "--latency-stage rollout")).toThrow(/^--latency-stage rollout: fixed/);
    expect(describeLatencyDist(parseLatencyDist("lognormal:1000:1:0.02", "x"))).toBe(
      "lognormal median 1000 ms σ 1 (2% ×10 slow)",
    );
  });

  it("the CLI takes a shared and per-stage distributions, refusing unknown stages", () => {
    const r = parseMockLlmArgs(["--latency", "lognormal:1000:1", "--latency-stage", "analyst=fixed:50"]);
    expect(r.help).toBe(false);
    if (r.help) return;
    expect(r.options.latency).toEqual({
      dist: { kind: "lognormal", medianMs: 1000, sigma: 1 },
      byStage: { analyst: { kind: "fixed", ms: 50 } },
    });
    expect(() => parseMockLlmArgs(["--latency-stage", "judge=fixed:5"])).toThrow(
      /--latency-stage: expected STAGE=DIST/,
    );
  });
});

describe("latency in the server", () => {
  const start = useMockServer();
  it("delays a target call by the rollout stage's distribution", async () => {
    const s = await start({
      latency: { byStage: { rollout: { kind: "fixed", ms: 150 }, analyst: { kind: "fixed", ms: 5000 } } },
    });
    const t0 = performance.now();
    expect((await postJson(`${s.url}/v1/chat/completions`, chatBody(targetPrompt(true)))).status).toBe(200);
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(4000);
  });
});

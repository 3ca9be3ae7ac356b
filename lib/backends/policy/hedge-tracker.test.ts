/** Learned latencies: censored answers of hedged calls (the hedge answered first) and the percentiles. */
import { describe, expect, it, vi } from "vitest";
import type { CompletionRequest } from "../../engine/ports";
import { config } from "../test-helpers";
import { createPolicyClient, type Transport } from "./client";
import { LatencyTracker, sharedTracker } from "./hedge";
import { answer, manualTimer, pendingSend, tick } from "./hedge-fakes";
import { RunPolicy } from "./run-policy";

const tracker = (exact: number[], censored: number[] = []) => {
  const t = new LatencyTracker(100);
  for (const ms of exact) t.observe("rollout", ms);
  for (const ms of censored) t.observe("rollout", ms, true);
  return t;
};

describe("LatencyTracker percentiles with censored answers", () => {
  it("without censored answers: the nearest-rank percentile", () => {
    const t = tracker([500, 100, 400, 200, 300]);
    expect([0.2, 0.5, 0.8, 0.81, 1].map((q) => t.delayFor("rollout", q, 1))).toEqual([100, 300, 400, 500, 500]);
  });

  // Eight answers at 100…800 ms and two first requests still running at 750 ms when their hedge answered.
  it("a censored answer is neither taken as its bound (too low) nor dropped (lower still)", () => {
    const exact = [100, 200, 300, 400, 500, 600, 700, 800];
    expect(tracker([...exact, 750, 750]).delayFor("rollout", 0.8, 1)).toBe(750); // the bound as a latency
    expect(tracker(exact).delayFor("rollout", 0.8, 1)).toBe(700); // the hedged calls dropped
    // Kaplan–Meier: 1 − Π(1 − 1/at risk) reaches 0.8 only at 800 ms (the two still ran past 750 ms).
    expect(tracker(exact, [750, 750]).delayFor("rollout", 0.8, 1)).toBe(800);
    // Below the bounds they count as running calls: the median is unchanged.
    expect(tracker(exact, [750, 750]).delayFor("rollout", 0.5, 1)).toBe(500);
  });

  it("when the censored tail leaves the estimate short of the percentile, the largest latency seen", () => {
    expect(tracker([100], [200, 200, 200]).delayFor("rollout", 0.9, 1)).toBe(200);
    expect(tracker([100], [200, 200, 200]).tailDelayFor("merge", 0.9, 1)).toBe(200);
  });
});

describe("policy client: what a hedged call teaches the tracker", () => {
  const req: CompletionRequest = {
    role: "target",
    stage: "rollout",
    system: "sys",
    messages: [{ role: "user", content: "q" }],
    maxTokens: 100,
  };

  it("records a call whose hedge answered first as censored, and one whose first request answered as exact", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    let n = 0;
    const transport: Transport = {
      params: () => ({}),
      send: (_r, signal) => (++n <= 3 ? Promise.resolve(answer("learned")) : send(signal)),
    };
    const endpoint = `http://h/${Math.random()}`;
    const observe = vi.spyOn(sharedTracker("openai", endpoint), "observe");
    const c = createPolicyClient({
      role: "target",
      backend: "openai",
      model: "m",
      endpoint,
      transport,
      run: new RunPolicy(config({ model: { hedge: true, hedge_min_samples: 3, hedge_tiers: "" } }), {
        hedgeTimer: timer,
      }),
    });
    for (let i = 0; i < 3; i++) await c.complete(req);
    expect(observe.mock.calls.map((a) => a[2])).toEqual([false, false, false]);

    const hedgeWins = c.complete(req);
    await tick();
    timer.fire();
    calls[1]!.resolve(answer("same"));
    await hedgeWins;
    expect(observe.mock.calls[3]).toEqual(["rollout", expect.any(Number), true]);

    const firstWins = c.complete(req);
    await tick();
    timer.fire();
    calls[2]!.resolve(answer("same"));
    await firstWins;
    expect(calls[3]!.signal.aborted).toBe(true);
    expect(observe.mock.calls[4]).toEqual(["rollout", expect.any(Number), false]);
  });
});

import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../../engine/ports";
import { config } from "../test-helpers";
import { createPolicyClient, type Transport } from "./client";
import { hedgedSend, LatencyTracker } from "./hedge";
import { answer, manualTimer, pendingSend, tick } from "./hedge-fakes";
import { RunPolicy } from "./run-policy";

describe("hedgedSend", () => {
  it("the hedge answers first: it wins and the first request is aborted", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    let released = 0;
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      trySlot: () => () => void released++,
      timer,
    });
    expect(calls).toHaveLength(1);
    timer.fire();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(answer("same"));
    await expect(p).resolves.toEqual({ answer: answer("same"), hedged: true, hedgeWon: true });
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[1]!.signal.aborted).toBe(false);
    await tick();
    expect(released).toBe(1);
  });

  it("a hedge due while the endpoint is busy goes once a slot is spare, and not after the answer", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    let free = false;
    const waiting: Array<() => void> = [];
    const opts = {
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      trySlot: () => (free ? () => {} : null),
      whenSlotFree: (fn: () => void) => {
        waiting.push(fn);
        return () => void waiting.splice(waiting.indexOf(fn), 1);
      },
      timer,
    };
    const p = hedgedSend(opts);
    timer.fire();
    expect(calls).toHaveLength(1);
    expect(waiting).toHaveLength(1);
    free = true;
    waiting.shift()!();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(answer("same"));
    await expect(p).resolves.toMatchObject({ hedged: true, hedgeWon: true });

    free = false;
    const q = hedgedSend(opts);
    timer.fire();
    expect(waiting).toHaveLength(1);
    calls[2]!.resolve(answer("first"));
    await expect(q).resolves.toMatchObject({ hedged: false });
    expect(waiting).toHaveLength(0);
  });

  it("the first request answers first: the hedge is aborted", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const p = hedgedSend({ send, signal: new AbortController().signal, delayMs: 50, trySlot: () => () => {}, timer });
    timer.fire();
    calls[0]!.resolve(answer("first"));
    await expect(p).resolves.toMatchObject({ hedged: true, hedgeWon: false, answer: { text: "first" } });
    expect(calls[1]!.signal.aborted).toBe(true);
  });

  it("no hedge before the delay, without a learned delay, or without a free slot", async () => {
    const timer = manualTimer();
    const a = pendingSend();
    const p = hedgedSend({
      send: a.send,
      signal: new AbortController().signal,
      delayMs: 50,
      trySlot: () => () => {},
      timer,
    });
    a.calls[0]!.resolve(answer("quick"));
    await expect(p).resolves.toMatchObject({ hedged: false });
    expect(timer.cleared).toBe(1);

    const b = pendingSend();
    const q = hedgedSend({
      send: b.send,
      signal: new AbortController().signal,
      delayMs: null,
      trySlot: () => () => {},
      timer,
    });
    expect(timer.pending).toBe(1);
    b.calls[0]!.resolve(answer("x"));
    await expect(q).resolves.toMatchObject({ hedged: false });

    const c = pendingSend();
    const r = hedgedSend({
      send: c.send,
      signal: new AbortController().signal,
      delayMs: 5,
      trySlot: () => null,
      timer,
    });
    timer.fire();
    expect(c.calls).toHaveLength(1);
    c.calls[0]!.resolve(answer("y"));
    await expect(r).resolves.toMatchObject({ hedged: false });
  });

  it("a failure waits for the other request; both failing gives the first request's error", async () => {
    const timer = manualTimer();
    const a = pendingSend();
    const p = hedgedSend({
      send: a.send,
      signal: new AbortController().signal,
      delayMs: 5,
      trySlot: () => () => {},
      timer,
    });
    timer.fire();
    a.calls[0]!.reject(new Error("first broke"));
    await tick();
    a.calls[1]!.resolve(answer("saved"));
    await expect(p).resolves.toMatchObject({ hedgeWon: true, answer: { text: "saved" } });

    const b = pendingSend();
    const q = hedgedSend({
      send: b.send,
      signal: new AbortController().signal,
      delayMs: 5,
      trySlot: () => () => {},
      timer,
    });
    timer.fire();
    b.calls[1]!.reject(new Error("hedge broke"));
    b.calls[0]!.reject(new Error("first broke"));
    await expect(q).rejects.toThrow("first broke");
  });

  it("cancelling the run aborts both requests", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const run = new AbortController();
    const p = hedgedSend({ send, signal: run.signal, delayMs: 5, trySlot: () => () => {}, timer });
    timer.fire();
    run.abort();
    await expect(p).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(calls.every((c) => c.signal.aborted)).toBe(true);
  });
});

describe("LatencyTracker", () => {
  it("gives the stage's percentile once it has enough samples, per stage", () => {
    const t = new LatencyTracker(100);
    for (let i = 1; i <= 9; i++) t.observe("rollout", i * 100);
    expect(t.delayFor("rollout", 0.9, 10)).toBeNull();
    t.observe("rollout", 1000);
    expect(t.delayFor("rollout", 0.9, 10)).toBe(900);
    expect(t.delayFor("rollout", 0.5, 10)).toBe(500);
    expect(t.delayFor("analyst", 0.9, 1)).toBeNull();
  });

  it("forgets the oldest samples past its capacity", () => {
    const t = new LatencyTracker(4);
    for (const ms of [5000, 5000, 5000, 5000, 10, 20, 30, 40]) t.observe("s", ms);
    expect(t.delayFor("s", 0.99, 4)).toBe(40);
  });
});

describe("policy client with model.hedge", () => {
  const req = (): CompletionRequest => ({
    role: "target",
    stage: "rollout",
    system: "sys",
    messages: [{ role: "user", content: "q" }],
    maxTokens: 100,
  });

  it("bills the hedge under <stage>_hedge, returns the winner's answer and aborts the loser", async () => {
    const timer = manualTimer();
    const signals: AbortSignal[] = [];
    let n = 0;
    const transport: Transport = {
      params: () => ({}),
      send(_r, signal) {
        signals.push(signal);
        n++;
        // The first three calls answer at once (the tracker learns); the fourth hangs; its hedge answers.
        if (n <= 3 || n === 5) return Promise.resolve(answer("the answer"));
        return new Promise((_, reject) =>
          signal.addEventListener("abort", () => reject(new OpenAI.APIUserAbortError())),
        );
      },
    };
    const cfg = config({
      model: {
        hedge: true,
        hedge_min_samples: 3,
        price_table: { "openai:m": { inputPerMTok: 1_000_000, outputPerMTok: 1_000_000 } },
      },
    });
    const policy = new RunPolicy(cfg, { hedgeTimer: timer });
    const c = createPolicyClient({
      role: "target",
      backend: "openai",
      model: "m",
      endpoint: `http://h/${Math.random()}`,
      transport,
      run: policy,
    });
    for (let i = 0; i < 3; i++) await c.complete(req());
    expect(timer.pending).toBe(0); // nothing learned before the third answer
    const p = c.complete(req());
    await tick();
    expect(timer.pending).toBe(1);
    timer.fire();
    const res = await p;
    expect(res.text).toBe("the answer");
    expect(signals[3]!.aborted).toBe(true);
    const st = c.stats!();
    expect(st.byStage.rollout).toMatchObject({ calls: 4, promptTokens: 40, completionTokens: 20, costUsd: 60 });
    expect(st.byStage.rollout_hedge).toMatchObject({ calls: 1, promptTokens: 10, completionTokens: 5, costUsd: 15 });
    expect(st.total).toMatchObject({ calls: 5, costUsd: 75 });
    expect(policy.budget.snapshot().spentUsd).toBe(75);
  });

  it("is off by default: a slow call is waited for", async () => {
    const cfg = config({ model: { hedge_min_samples: 1 } });
    const policy = new RunPolicy(cfg, { hedgeTimer: manualTimer() });
    let n = 0;
    const transport: Transport = { params: () => ({}), send: () => Promise.resolve(answer(`a${++n}`)) };
    const c = createPolicyClient({
      role: "target",
      backend: "openai",
      model: "m",
      endpoint: `http://h/${Math.random()}`,
      transport,
      run: policy,
    });
    for (let i = 0; i < 3; i++) await c.complete(req());
    expect(n).toBe(3);
    expect(c.stats!().byStage.rollout_hedge).toBeUndefined();
  });

  it("refuses bad hedge settings naming the key", () => {
    expect(() => new RunPolicy(config({ model: { hedge_percentile: 0.2 } }))).toThrow(/model\.hedge_percentile/);
    expect(() => new RunPolicy(config({ model: { hedge_tiers: "4@0.9,two@0.5" } }))).toThrow(
      /model\.hedge_tiers\.1.*CALLS@PERCENTILE.*'two@0\.5'/s,
    );
    expect(() => new RunPolicy(config({ model: { hedge_tiers: ["4@0.2"] } }))).toThrow(/model\.hedge_tiers\.0/);
    const tiers = (model: Record<string, unknown>) => new RunPolicy(config({ model })).transport.hedge_tiers;
    expect(tiers({})).toEqual([
      { calls: 4, percentile: 0.95 },
      { calls: 2, percentile: 0.5 },
    ]);
    expect(tiers({ hedge_tiers: "" })).toEqual([]);
    expect(tiers({ hedge_tiers: " 4@0.9, 2@0.5 " })).toEqual([
      { calls: 4, percentile: 0.9 },
      { calls: 2, percentile: 0.5 },
    ]);
  });
});

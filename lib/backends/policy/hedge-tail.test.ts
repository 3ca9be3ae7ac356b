/** The earlier hedges of an endpoint's last few calls (`model.hedge_tiers`, `model.hedge_tail_*`). */
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../../engine/ports";
import { config } from "../test-helpers";
import { createPolicyClient, type Transport, type TransportAnswer } from "./client";
import { hedgedSend, LatencyTracker } from "./hedge";
import { answer, manualTimer, pendingSend, tick } from "./hedge-fakes";
import { RunPolicy } from "./run-policy";

/** Spare-slot listeners collected by hand: `free()` calls the waiting ones, as the limiter would. */
function spareSlots() {
  const waiting: Array<() => void> = [];
  return {
    waiting,
    whenSlotFree: (fn: () => void) => {
      waiting.push(fn);
      return () => {
        const i = waiting.indexOf(fn);
        if (i >= 0) waiting.splice(i, 1);
      };
    },
    free: () => waiting.splice(0).forEach((fn) => fn()),
  };
}

describe("hedgedSend with tiers", () => {
  it("past a tier's delay, a call the tier holds for is hedged at once", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      tiers: [{ delayMs: 10, isTail: () => true }],
      trySlot: () => () => {},
      timer,
    });
    expect(timer.delays).toEqual([10]);
    timer.fire();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(answer("same"));
    await expect(p).resolves.toMatchObject({ hedged: true, hedgeWon: true });
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it("otherwise it re-checks at each spare slot and is hedged once the tier holds", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const slots = spareSlots();
    let tail = false;
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      tiers: [{ delayMs: 10, isTail: () => tail }],
      trySlot: () => () => {},
      whenSlotFree: slots.whenSlotFree,
      timer,
    });
    timer.fire();
    expect(calls).toHaveLength(1);
    expect(timer.delays).toEqual([10, 40]); // the main delay still counts from the start
    slots.free();
    expect(calls).toHaveLength(1);
    expect(slots.waiting).toHaveLength(1);
    tail = true;
    slots.free();
    expect(calls).toHaveLength(2);
    expect(timer.cleared).toBe(1); // the main delay's timer
    calls[0]!.resolve(answer("first"));
    await expect(p).resolves.toMatchObject({ hedged: true, hedgeWon: false });
    expect(slots.waiting).toHaveLength(0);
  });

  it("a call no tier holds for is hedged at the main delay; a tier not shorter is ignored", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const slots = spareSlots();
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      tiers: [{ delayMs: 10, isTail: () => false }],
      trySlot: () => () => {},
      whenSlotFree: slots.whenSlotFree,
      timer,
    });
    timer.fire();
    expect(slots.waiting).toHaveLength(1);
    timer.fire();
    expect(calls).toHaveLength(2);
    expect(slots.waiting).toHaveLength(0);
    calls[1]!.resolve(answer("same"));
    await expect(p).resolves.toMatchObject({ hedged: true, hedgeWon: true });

    const late = manualTimer();
    const q = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      tiers: [{ delayMs: 60, isTail: () => true }],
      trySlot: () => () => {},
      timer: late,
    });
    expect(late.delays).toEqual([50]);
    calls[2]!.resolve(answer("quick"));
    await expect(q).resolves.toMatchObject({ hedged: false });
  });

  // Tiers as the policy client builds them: p50 with ≤ 2 first requests in flight, a later one with ≤ 4, else p99.
  it.each([
    { inFlight: 1, hedgedAt: 10 },
    { inFlight: 2, hedgedAt: 10 },
    { inFlight: 3, hedgedAt: 30 },
    { inFlight: 4, hedgedAt: 30 },
    { inFlight: 5, hedgedAt: 50 },
  ])("with $inFlight in flight the tier for that count decides the delay", async ({ inFlight, hedgedAt }) => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      // Listed out of order: they apply in the order their delays pass.
      tiers: [
        { delayMs: 30, isTail: () => inFlight <= 4 },
        { delayMs: 10, isTail: () => inFlight <= 2 },
      ],
      trySlot: () => () => {},
      whenSlotFree: spareSlots().whenSlotFree,
      timer,
    });
    expect(timer.delays).toEqual([10]);
    let elapsed = 0;
    while (calls.length < 2) {
      elapsed += timer.delays.at(-1)!;
      timer.fire();
    }
    expect(elapsed).toBe(hedgedAt);
    calls[0]!.resolve(answer("first"));
    await expect(p).resolves.toMatchObject({ hedged: true, hedgeWon: false });
  });
});

describe("LatencyTracker for the tail hedge", () => {
  it("a stage without enough answers of its own uses the endpoint's over all stages", () => {
    const t = new LatencyTracker(100);
    for (let i = 1; i <= 4; i++) t.observe("rollout", i * 100);
    t.observe("merge", 5000);
    expect(t.delayFor("merge", 0.5, 3)).toBeNull();
    expect(t.tailDelayFor("merge", 0.5, 3)).toBe(300);
    expect(t.tailDelayFor("rollout", 0.5, 3)).toBe(200);
    expect(new LatencyTracker().tailDelayFor("merge", 0.5, 3)).toBeNull();
  });

  it("counts first requests in flight; ending one twice counts once", () => {
    const t = new LatencyTracker();
    const a = t.begin();
    const b = t.begin();
    expect(t.inFlight).toBe(2);
    a();
    a();
    expect(t.inFlight).toBe(1);
    b();
    expect(t.inFlight).toBe(0);
  });
});

describe("policy client: the tail hedge", () => {
  const req = (stage: string): CompletionRequest => ({
    role: "target",
    stage,
    system: "sys",
    messages: [{ role: "user", content: "q" }],
    maxTokens: 100,
  });

  /** Answers the first `learn` calls after a few ms; later ones wait for `answerNext()` (or their abort). */
  function slowTransport(learn: number) {
    const hanging: Array<{ signal: AbortSignal; resolve: (a: TransportAnswer) => void }> = [];
    let n = 0;
    const transport: Transport = {
      params: () => ({}),
      send(_r, signal) {
        n++;
        if (n <= learn) return new Promise((r) => setTimeout(() => r(answer("learned")), 5 * n));
        return new Promise((resolve, reject) => {
          hanging.push({ signal, resolve });
          signal.addEventListener("abort", () => reject(new OpenAI.APIUserAbortError()));
        });
      },
    };
    return { transport, hanging, sent: () => n };
  }

  function client(model: Record<string, unknown>, transport: Transport) {
    const timer = manualTimer();
    const policy = new RunPolicy(config({ model: { hedge: true, hedge_min_samples: 3, ...model } }), {
      hedgeTimer: timer,
    });
    const c = createPolicyClient({
      role: "target",
      backend: "openai",
      model: "m",
      endpoint: `http://h/${Math.random()}`,
      transport,
      run: policy,
    });
    return { c, timer };
  }

  /** An endpoint that learned three rollout latencies, then starts `stages` (their first requests hang). */
  async function learned(model: Record<string, unknown>, stages: string[]) {
    const t = slowTransport(3);
    const { c, timer } = client(model, t.transport);
    for (let i = 0; i < 3; i++) await c.complete(req("rollout"));
    const pending = stages.map((s) => c.complete(req(s)));
    await tick();
    return { t, c, timer, pending };
  }

  // After the learning calls, `stages` start; the pending timer is fired `fires` times, then the first
  // requests or hedges (`hanging[i]`, counted from the fourth request sent) answer in `answers` order.
  it.each([
    {
      name: "a lone call of a stage with no answers of its own is hedged at the endpoint's tail percentile",
      model: { hedge_tail_percentile: 0.5, hedge_tail_calls: 2, hedge_tiers: "" },
      stages: ["merge"],
      timers: 1,
      fires: 1,
      sent: 5,
      answers: [{ hanging: 1, call: 0, text: "merged", sentAfter: 5 }],
      aborted: [0],
      hedges: { merge_hedge: 1 },
    },
    {
      name: "the same through model.hedge_tiers",
      model: { hedge_tiers: "2@0.5" },
      stages: ["merge"],
      timers: 1,
      fires: 1,
      sent: 5,
      answers: [{ hanging: 1, call: 0, text: "merged", sentAfter: 5 }],
      aborted: [0],
      hedges: { merge_hedge: 1 },
    },
    {
      name: "with no tiers (hedge_tiers '', hedge_tail_calls 0) the same call is only waited for",
      model: { hedge_tail_percentile: 0.5, hedge_tiers: [] },
      stages: ["merge"],
      timers: 0,
      fires: 0,
      sent: 4,
      answers: [{ hanging: 0, call: 0, text: "merged", sentAfter: 4 }],
      aborted: [],
      hedges: {},
    },
    {
      name: "while more than the tier's calls are in flight it waits; once another answers, it is hedged",
      model: { hedge_tail_percentile: 0.5, hedge_tail_calls: 1, hedge_tiers: "" },
      stages: ["rollout", "rollout"],
      timers: 2,
      fires: 1, // the second call's tail delay: two calls in flight, no hedge
      sent: 5,
      answers: [
        { hanging: 0, call: 0, text: "a", sentAfter: 6 },
        { hanging: 2, call: 1, text: "b", sentAfter: 6 },
      ],
      aborted: [1],
      hedges: { rollout_hedge: 1 },
    },
  ])("$name", async ({ model, stages, timers, fires, sent, answers, aborted, hedges }) => {
    const { t, c, timer, pending } = await learned(model, stages);
    expect(timer.pending).toBe(timers);
    for (let i = 0; i < fires; i++) timer.fire();
    await tick();
    expect(t.sent()).toBe(sent);
    for (const a of answers) {
      t.hanging[a.hanging]!.resolve(answer(a.text));
      await expect(pending[a.call]).resolves.toMatchObject({ text: a.text });
      await tick();
      expect(t.sent()).toBe(a.sentAfter);
    }
    for (const i of aborted) expect(t.hanging[i]!.signal.aborted).toBe(true);
    const byStage = c.stats!().byStage;
    for (const stage of ["merge_hedge", "rollout_hedge"])
      expect(byStage[stage]?.calls, stage).toBe((hedges as Record<string, number>)[stage]);
  });
});

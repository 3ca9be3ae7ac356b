/** The earlier hedge of an endpoint's last few calls (`model.hedge_tail_*`). */
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../../engine/ports";
import { config } from "../test-helpers";
import { createPolicyClient, type Transport, type TransportAnswer } from "./client";
import { hedgedSend, LatencyTracker } from "./hedge";
import { answer, manualTimer, pendingSend, tick } from "./hedge-fakes";
import { Limiter } from "./limiter";
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

describe("hedgedSend with a tail delay", () => {
  it("past the tail delay, a call among the endpoint's last ones is hedged at once", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      tail: { delayMs: 10, isTail: () => true },
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

  it("otherwise it re-checks at each spare slot and is hedged once it is among the last ones", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const slots = spareSlots();
    let tail = false;
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      tail: { delayMs: 10, isTail: () => tail },
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

  it("a call that never becomes a tail one is hedged at the main delay; a tail delay not shorter is ignored", async () => {
    const timer = manualTimer();
    const { calls, send } = pendingSend();
    const slots = spareSlots();
    const p = hedgedSend({
      send,
      signal: new AbortController().signal,
      delayMs: 50,
      tail: { delayMs: 10, isTail: () => false },
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
      tail: { delayMs: 60, isTail: () => true },
      trySlot: () => () => {},
      timer: late,
    });
    expect(late.delays).toEqual([50]);
    calls[2]!.resolve(answer("quick"));
    await expect(q).resolves.toMatchObject({ hedged: false });
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

describe("Limiter.onSpare re-registration", () => {
  it("a listener registering again is called at the next free slot, not again at once", () => {
    const lim = new Limiter(2);
    const release = lim.tryAcquire()!;
    let calls = 0;
    const listen = () => {
      calls++;
      lim.onSpare(listen);
    };
    lim.onSpare(listen);
    release();
    expect(calls).toBe(1);
    lim.tryAcquire()!();
    expect(calls).toBe(2);
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

  it("a lone call of a stage with no answers of its own is hedged at the endpoint's tail percentile", async () => {
    const t = slowTransport(3);
    const { c, timer } = client({ hedge_tail_percentile: 0.5, hedge_tail_calls: 2 }, t.transport);
    for (let i = 0; i < 3; i++) await c.complete(req("rollout"));
    const p = c.complete(req("merge"));
    await tick();
    expect(timer.pending).toBe(1);
    timer.fire();
    await tick();
    expect(t.sent()).toBe(5);
    t.hanging[1]!.resolve(answer("merged"));
    await expect(p).resolves.toMatchObject({ text: "merged" });
    expect(t.hanging[0]!.signal.aborted).toBe(true);
    expect(c.stats!().byStage.merge_hedge).toMatchObject({ calls: 1 });
  });

  it("by default (model.hedge_tail_calls 0) the same call is only waited for", async () => {
    const t = slowTransport(3);
    const { c, timer } = client({ hedge_tail_percentile: 0.5 }, t.transport);
    for (let i = 0; i < 3; i++) await c.complete(req("rollout"));
    const p = c.complete(req("merge"));
    await tick();
    expect(timer.pending).toBe(0);
    t.hanging[0]!.resolve(answer("merged"));
    await expect(p).resolves.toMatchObject({ text: "merged" });
    expect(t.sent()).toBe(4);
  });

  it("while more than hedge_tail_calls are in flight it waits; once another answers, it is hedged", async () => {
    const t = slowTransport(3);
    const { c, timer } = client({ hedge_tail_percentile: 0.5, hedge_tail_calls: 1 }, t.transport);
    for (let i = 0; i < 3; i++) await c.complete(req("rollout"));
    const a = c.complete(req("rollout"));
    const b = c.complete(req("rollout"));
    await tick();
    timer.fire(); // the second call's tail delay: two calls in flight, no hedge
    await tick();
    expect(t.sent()).toBe(5);
    t.hanging[0]!.resolve(answer("a"));
    await expect(a).resolves.toMatchObject({ text: "a" });
    await tick();
    expect(t.sent()).toBe(6);
    t.hanging[2]!.resolve(answer("b"));
    await expect(b).resolves.toMatchObject({ text: "b" });
    expect(t.hanging[1]!.signal.aborted).toBe(true);
    expect(c.stats!().byStage.rollout_hedge).toMatchObject({ calls: 1 });
  });
});

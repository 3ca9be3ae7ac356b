/** Test doubles of the hedge tests: a timer fired by hand and requests answered by hand. */
import OpenAI from "openai";
import type { TransportAnswer } from "./client";
import type { HedgeTimer } from "./hedge";

/** A timer fired by hand: `fire()` runs the pending callback; `delays` are the delays it was set to. */
export function manualTimer(): HedgeTimer & { fire(): void; pending: number; cleared: number; delays: number[] } {
  let fn: (() => void) | null = null;
  const t = {
    pending: 0,
    cleared: 0,
    delays: [] as number[],
    set(f: () => void, ms: number) {
      fn = f;
      t.pending++;
      t.delays.push(ms);
      return 1;
    },
    clear() {
      fn = null;
      t.cleared++;
    },
    fire() {
      const f = fn;
      fn = null;
      f?.();
    },
  };
  return t;
}

export const answer = (text: string): TransportAnswer => ({ text, usage: { promptTokens: 10, completionTokens: 5 } });

/** A request that answers when `resolve` is called, or rejects when its signal aborts. */
export function pendingSend() {
  const calls: Array<{ signal: AbortSignal; resolve: (a: TransportAnswer) => void; reject: (e: unknown) => void }> = [];
  const send = (signal: AbortSignal) =>
    new Promise<TransportAnswer>((resolve, reject) => {
      calls.push({ signal, resolve, reject });
      signal.addEventListener("abort", () => reject(new OpenAI.APIUserAbortError()));
    });
  return { calls, send };
}

export const tick = () => new Promise((r) => setImmediate(r));

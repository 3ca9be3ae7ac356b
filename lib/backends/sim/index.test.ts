import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { createSimClient } from "./index";

const target = createSimClient({
  role: "target",
  knowledge: null,
  seed: 1,
  slipRate: 0,
  unhelpfulRate: 0,
  malformedRate: 0,
  latencyMs: 0,
});
const ask = (signal?: AbortSignal) =>
  target.complete({
    role: "target",
    stage: "rollout",
    system: "Answer.",
    messages: [{ role: "user", content: "Capital of France?" }],
    maxTokens: 100,
    signal,
  });

describe("the simulated client", () => {
  it("gives the event loop a turn on every call, so timers, signals and sockets run during a run", async () => {
    // Without a turn per call a run on the sim is one unbroken chain of promise jobs: a cancel poll, a
    // heartbeat, SIGTERM or a queue lock renewal would wait for the whole run.
    const seen: string[] = [];
    setImmediate(() => seen.push("loop"));
    for (let i = 0; i < 3; i++) {
      await ask();
      seen.push(`call ${i}`);
    }
    expect(seen[0]).toBe("loop");
  });

  it("a call whose run was aborted during that turn fails instead of answering", async () => {
    const ac = new AbortController();
    const p = ask(ac.signal);
    ac.abort(new Error("cancelled by the user"));
    await expect(p).rejects.toThrow("cancelled by the user");
  });

  it("leaves no listener on the call's signal once it has answered (with latency), nor after an abort", async () => {
    // A listener left behind keeps a target call's deadline signal, its timer and the listener's closure
    // alive until the deadline passes (120 s by default): about 80 KB per step in bench:engine --scale.
    const slow = createSimClient({
      role: "target",
      knowledge: null,
      seed: 1,
      slipRate: 0,
      unhelpfulRate: 0,
      malformedRate: 0,
      latencyMs: 1,
    });
    const request = {
      role: "target" as const,
      stage: "rollout" as const,
      system: "Answer.",
      messages: [{ role: "user" as const, content: "Capital of France?" }],
      maxTokens: 100,
    };
    const ac = new AbortController();
    await slow.complete({ ...request, signal: ac.signal });
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
    const aborted = new AbortController();
    const p = slow.complete({ ...request, signal: aborted.signal });
    aborted.abort(new Error("stopped"));
    await expect(p).rejects.toThrow("stopped");
    expect(getEventListeners(aborted.signal, "abort")).toHaveLength(0);
  });
});

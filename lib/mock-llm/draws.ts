/**
 * Seeded, counter-based draws for faults and latency. Each model request takes the next number of a
 * counter and hashes it with the seed, so a test that sends the same requests in the same order sees the
 * same faults and delays, whatever the wall clock does.
 */
import { draw } from "../backends/sim/parse";
import { FAULT_KINDS, type FaultKind, type MockFaults, type MockLatency } from "./types";

const RATE_FIELD: Record<FaultKind, keyof MockFaults> = {
  quotaExhausted: "quotaExhaustedRate",
  rate429: "rate429",
  rate500: "rate500",
  hang: "hangRate",
  malformedJson: "malformedJsonRate",
  truncated: "truncatedRate",
};

function rate(faults: MockFaults, kind: FaultKind): number {
  const v = faults[RATE_FIELD[kind]];
  return typeof v === "number" && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

/**
 * Picks at most one fault per request from a single uniform draw laid over the kinds' rates end to end
 * (in `FAULT_KINDS` order). While the rates sum to ≤ 1 each kind fires with exactly its own rate; when
 * they sum to more, the kinds listed first win the overlap. The draw is the next of a counter, or with
 * `byPrompt` a hash of the prompt (`promptKey`), so the same prompt always gets the same fault.
 */
export function createFaultPicker(faults: MockFaults, fallbackSeed: number): (promptKey?: string) => FaultKind | null {
  const seed = faults.seed ?? fallbackSeed;
  let n = 0;
  return (promptKey = "") => {
    const u = faults.byPrompt ? draw(seed, "mock-fault-prompt", promptKey) : draw(seed, "mock-fault", n++);
    let edge = 0;
    for (const kind of FAULT_KINDS) {
      const r = rate(faults, kind);
      if (r <= 0) continue;
      edge += r;
      if (u < edge) return kind;
    }
    return null;
  };
}

/** Delay in ms per request: fixed, or mean ± uniform jitter; never negative. */
export function createLatencyPicker(latency: MockLatency | undefined, seed: number): () => number {
  let n = 0;
  return () => {
    if (!latency) return 0;
    if (latency.fixedMs !== undefined && latency.fixedMs > 0) return latency.fixedMs;
    const mean = latency.meanMs ?? 0;
    const jitter = latency.jitterMs ?? 0;
    if (mean <= 0 && jitter <= 0) return 0;
    const u = draw(seed, "mock-latency", n++);
    return Math.max(0, Math.round(mean + (2 * u - 1) * jitter));
  };
}

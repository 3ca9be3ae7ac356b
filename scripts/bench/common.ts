/**
 * Shared pieces of the benchmark scripts: scaled sample data, the SearchQA-shaped splits and sim clients of
 * bench:engine and bench:store, call timing, the critical-path bound.
 */
import { createSimClient } from "../../lib/backends/sim";
import { buildSimKnowledge } from "../../lib/contracts/sim";
import type { CompletionRequest, Item, ModelClient, Splits } from "../../lib/engine";
import { searchQaSample, searchQaSimRules } from "../../lib/envs";

/** Distinct items cloned from the sample (the sim recognises items by question text). */
export function scaled(n: number, tag: string, pool: Item[]): Item[] {
  return Array.from({ length: n }, (_, i) => {
    const src = pool[i % pool.length]!;
    return { ...src, id: `${tag}-${i}`, question: `${String(src.question)} (case ${tag}-${i})` };
  });
}

/** SearchQA-shaped splits of distinct items: `train` train items, `selection` selection and as many test items. */
export function searchQaSplits(train: number, selection: number): Splits {
  const sample = searchQaSample();
  const pool = [...sample.train, ...sample.val, ...sample.test];
  return { train: scaled(train, "tr", pool), val: scaled(selection, "va", pool), test: scaled(selection, "te", pool) };
}

/**
 * The simulated optimizer and target of the SearchQA benches, knowing every item of `splits` (the rates are
 * the benches' shared shape: some slips, a quarter of the analyses unhelpful, no malformed answers).
 */
export function searchQaSimClients(opts: { splits: Splits; seed: number; latencyMs: number }): {
  optimizer: ModelClient;
  target: ModelClient;
} {
  const { splits } = opts;
  const knowledge = buildSimKnowledge(searchQaSimRules(), [...splits.train, ...splits.val, ...splits.test]);
  const sim = (role: "optimizer" | "target") =>
    createSimClient({
      role,
      knowledge,
      seed: opts.seed,
      slipRate: 0.04,
      unhelpfulRate: 0.25,
      malformedRate: 0,
      latencyMs: opts.latencyMs,
    });
  return { optimizer: sim("optimizer"), target: sim("target") };
}

export type Call = { start: number; end: number };

/** Records the start and end of every call through the client. */
export function timedClient(client: ModelClient, calls: Call[]): ModelClient {
  return {
    backend: client.backend,
    model: client.model,
    async complete(req: CompletionRequest) {
      const c = { start: performance.now(), end: 0 };
      try {
        return await client.complete(req);
      } finally {
        c.end = performance.now();
        calls.push(c);
      }
    },
  };
}

/**
 * Phases = maximal groups of overlapping calls; the bound assumes perfect packing within each. `idle` is
 * the time between phases (no call in flight: the engine's sequential work), `overrun` the time phases
 * took beyond their packed length (slots left empty, calls slower than the latency); wall − bound ≈ both
 * plus the time before the first and after the last call.
 */
export function criticalPath(
  all: Call[],
  concurrency: number,
  latency: number,
): { bound: number; phases: number; idle: number; overrun: number } {
  const sorted = [...all].sort((a, b) => a.start - b.start);
  let bound = 0;
  let phases = 0;
  let idle = 0;
  let overrun = 0;
  let n = 0;
  let phaseStart = 0;
  let phaseEnd = -Infinity;
  const close = () => {
    const packed = Math.ceil(n / concurrency) * latency;
    if (process.env.BENCH_DEBUG) console.error(`phase ${phases}: ${n} calls, ${(phaseEnd - phaseStart).toFixed(0)} ms`);
    bound += packed;
    overrun += Math.max(0, phaseEnd - phaseStart - packed);
    phases += 1;
    n = 0;
  };
  for (const c of sorted) {
    if (c.start >= phaseEnd && n > 0) {
      close();
      idle += c.start - phaseEnd;
    }
    if (n === 0) phaseStart = c.start;
    n += 1;
    phaseEnd = Math.max(phaseEnd, c.end);
  }
  if (n > 0) close();
  return { bound, phases, idle, overrun };
}

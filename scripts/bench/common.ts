/**
 * Shared pieces of the benchmark scripts: scaled sample data, call timing, the critical-path bound.
 */
import type { CompletionRequest, Item, ModelClient } from "../../lib/engine";

/** Distinct items cloned from the sample (the sim recognises items by question text). */
export function scaled(n: number, tag: string, pool: Item[]): Item[] {
  return Array.from({ length: n }, (_, i) => {
    const src = pool[i % pool.length]!;
    return { ...src, id: `${tag}-${i}`, question: `${String(src.question)} (case ${tag}-${i})` };
  });
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

/** Phases = maximal groups of overlapping calls; the bound assumes perfect packing within each. */
export function criticalPath(all: Call[], concurrency: number, latency: number): { bound: number; phases: number } {
  const sorted = [...all].sort((a, b) => a.start - b.start);
  let bound = 0;
  let phases = 0;
  let n = 0;
  let phaseEnd = -Infinity;
  for (const c of sorted) {
    if (c.start >= phaseEnd && n > 0) {
      if (process.env.BENCH_DEBUG) console.error(`phase ${phases}: ${n} calls`);
      bound += Math.ceil(n / concurrency) * latency;
      phases += 1;
      n = 0;
    }
    n += 1;
    phaseEnd = Math.max(phaseEnd, c.end);
  }
  if (n > 0) {
    bound += Math.ceil(n / concurrency) * latency;
    phases += 1;
  }
  return { bound, phases };
}

/**
 * Token accounting per stage (spec §14 "Token tracking") and a bounded-concurrency map.
 */
import type { CompletionRequest, CompletionResult, ModelClient } from "./ports";
import type { TokenStats, TokensByStage } from "./types";

export class UsageTracker {
  private readonly stages = new Map<string, TokenStats>();

  record(stage: string, usage: { promptTokens: number; completionTokens: number }, calls = 1): void {
    const s = this.stages.get(stage) ?? { calls: 0, prompt_tokens: 0, completion_tokens: 0 };
    s.calls += calls;
    s.prompt_tokens += usage.promptTokens;
    s.completion_tokens += usage.completionTokens;
    this.stages.set(stage, s);
  }

  /** A copy of the per-stage counters. */
  snapshot(): TokensByStage {
    const out: TokensByStage = {};
    for (const [k, v] of [...this.stages.entries()].sort(([a], [b]) => a.localeCompare(b))) out[k] = { ...v };
    return out;
  }

  /** Restores counters saved by an earlier (interrupted) session of the same run. */
  load(saved: TokensByStage | undefined): void {
    this.stages.clear();
    for (const [k, v] of Object.entries(saved ?? {})) this.stages.set(k, { ...v });
  }

  /** The per-stage difference `after − before`, stages with no new calls omitted. */
  static delta(before: TokensByStage, after: TokensByStage): TokensByStage {
    const out: TokensByStage = {};
    for (const [k, a] of Object.entries(after)) {
      const b = before[k] ?? { calls: 0, prompt_tokens: 0, completion_tokens: 0 };
      if (a.calls === b.calls) continue;
      out[k] = {
        calls: a.calls - b.calls,
        prompt_tokens: a.prompt_tokens - b.prompt_tokens,
        completion_tokens: a.completion_tokens - b.completion_tokens,
      };
    }
    return out;
  }

  /** Per-stage totals plus `total_tokens` and a `_total` record, as in summary.json. */
  summary(): Record<string, TokenStats & { total_tokens: number }> {
    const out: Record<string, TokenStats & { total_tokens: number }> = {};
    const total = { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    for (const [k, v] of Object.entries(this.snapshot())) {
      out[k] = { ...v, total_tokens: v.prompt_tokens + v.completion_tokens };
      total.calls += v.calls;
      total.prompt_tokens += v.prompt_tokens;
      total.completion_tokens += v.completion_tokens;
      total.total_tokens += v.prompt_tokens + v.completion_tokens;
    }
    out._total = total;
    return out;
  }
}

/** Wraps a client so every completed call is counted under its stage. */
export function trackedClient(client: ModelClient, tracker: UsageTracker): ModelClient {
  return {
    backend: client.backend,
    model: client.model,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const res = await client.complete(req);
      tracker.record(req.stage, res.usage);
      return res;
    },
  };
}

/**
 * Maps `fn` over `items` with at most `limit` in flight; results keep input order. The first rejection
 * is re-thrown after in-flight work settles, so no promise is left unobserved.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | null = null;
  const worker = async () => {
    while (failed === null) {
      const i = next++;
      if (i >= items.length) return;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  const n = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  if (failed !== null) throw (failed as { error: unknown }).error;
  return results;
}

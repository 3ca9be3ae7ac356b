/**
 * The policy layer every backend goes through: a provider only supplies a Transport (one raw request
 * through its SDK); this turns it into the engine's ModelClient with, around every call, the response
 * cache, the budget reservation, the endpoint's concurrency limit, a per-attempt timeout tied to the
 * run's AbortSignal, classified errors, retries with backoff, and usage/cost accounting per stage.
 */
import type { CompletionRequest, CompletionResult, ModelClient, Role } from "../../engine/ports";
import { BackendError, classifyError } from "../errors";
import { costAt, priceOf } from "../pricing";
import { BudgetExhaustedError, type Reservation } from "./budget";
import { cacheKeyOf } from "./cache";
import { hedgedSend, sharedTracker, type HedgeOutcome } from "./hedge";
import { sharedLimiter } from "./limiter";
import { providerLimits, providerResetMs, sharedRateGate, type RateGrant } from "./rate-limit";
import { withRetries } from "./retry";
import type { Transport, TransportAnswer } from "../provider";
import type { RunPolicy } from "./run-policy";

// The provider contract lives with the providers (web-safe, no policy code); re-exported for the policy's users.
export type { Transport, TransportAnswer } from "../provider";

export interface PolicyClientOptions {
  role: Role;
  backend: string;
  model: string;
  /** The endpoint (base URL): the concurrency limiter and the cache key are per endpoint. */
  endpoint: string;
  transport: Transport;
  run: RunPolicy;
  /** False for the simulated model: it never fails transiently, so it is never retried. */
  retries?: boolean;
  /** Appended to authentication failures, e.g. "check OPENAI_API_KEY". */
  authHint?: string;
  /** Per-attempt timeout in seconds instead of `model.timeout_seconds` (0: none; exec clients time out themselves). */
  timeoutSeconds?: number;
  /** A hash of the API key: the shared rate limit is per endpoint and key. */
  keyId?: string;
}

/** Rough prompt size before the call (≈ 4 characters per token; an image counted as 1,000 tokens). */
export function estimatePromptTokens(req: CompletionRequest): number {
  let chars = req.system.length;
  let images = 0;
  for (const m of req.messages) {
    if (typeof m.content === "string") chars += m.content.length;
    else {
      for (const part of m.content) {
        if (part.type === "text") chars += part.text.length;
        else images++;
      }
    }
  }
  return Math.ceil(chars / 4) + images * 1000 + 8 * req.messages.length;
}

export function createPolicyClient(o: PolicyClientOptions): ModelClient {
  const { run, backend, model, role, transport } = o;
  const price = priceOf(backend, model, run.prices);
  const limiter = sharedLimiter(backend, o.endpoint, run.transport.max_concurrency);
  const tracker = sharedTracker(backend, o.endpoint);
  const hedging = run.transport.hedge;
  const gate = sharedRateGate(
    `${backend} ${o.endpoint.replace(/\/+$/, "")} ${o.keyId ?? "nokey"}`,
    { rpm: run.transport.rate_limit_rpm, tpm: run.transport.rate_limit_tpm },
    run.retry.sleep,
  );
  const timeoutS = o.timeoutSeconds ?? run.transport.timeout_seconds;
  const maxRetries = o.retries === false ? 0 : run.transport.max_retries;
  run.ledger.register(role, backend, model, price !== null);

  /**
   * The earlier hedges of an endpoint's last few calls (`model.hedge_tiers`, `model.hedge_tail_*`): each
   * tier applies while nothing is queued and at most its number of first requests are in flight.
   */
  function tiersOf(stage: string) {
    const t = run.transport;
    if (!hedging) return undefined;
    const tiers =
      t.hedge_tail_calls > 0
        ? [...t.hedge_tiers, { calls: t.hedge_tail_calls, percentile: t.hedge_tail_percentile }]
        : t.hedge_tiers;
    return tiers.flatMap(({ calls, percentile }) => {
      const delayMs = tracker.tailDelayFor(stage, percentile, t.hedge_min_samples);
      if (delayMs === null) return [];
      return [{ delayMs, isTail: () => limiter.waiting === 0 && tracker.inFlight <= calls }];
    });
  }

  async function attempt(req: CompletionRequest, reached: { yes: boolean }): Promise<HedgeOutcome<TransportAnswer>> {
    return limiter.run(async () => {
      reached.yes = true;
      const done = tracker.begin();
      const timeout = timeoutS > 0 ? AbortSignal.timeout(Math.round(timeoutS * 1000)) : null;
      const signals = [req.signal, timeout].filter((s): s is AbortSignal => s !== undefined && s !== null);
      const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
      const t0 = Date.now();
      let grant: RateGrant | undefined;
      try {
        const out = await hedgedSend({
          send: async (s) => {
            if (gate) grant = await gate.acquire(estimatePromptTokens(req), s);
            return transport.send(req, s);
          },
          signal,
          delayMs: hedging
            ? tracker.delayFor(req.stage, run.transport.hedge_percentile, run.transport.hedge_min_samples)
            : null,
          tiers: tiersOf(req.stage),
          trySlot: () => limiter.tryAcquire(),
          whenSlotFree: (fn) => limiter.onSpare(fn),
          timer: run.hedgeTimer,
        });
        // When the hedge answered first, the first request ran at least this long: a censored latency
        // (hedge-tracker.ts says why neither this bound nor dropping the call would keep percentiles honest).
        tracker.observe(req.stage, Date.now() - t0, out.hedgeWon);
        await gate?.answered(out.answer.usage.completionTokens);
        return out;
      } catch (err) {
        const timedOut = timeout?.aborted === true && req.signal?.aborted !== true;
        const e = classifyError(err, backend, {
          aborted: req.signal?.aborted,
          timedOutAfterS: timedOut ? timeoutS : undefined,
          authHint: o.authHint,
        });
        if (gate && e.kind === "rate_limited") {
          const headers = (err as { headers?: Parameters<typeof providerResetMs>[0] } | null)?.headers;
          await gate.limited(e.retryAfterMs ?? providerResetMs(headers), providerLimits(headers), grant);
        }
        throw e;
      } finally {
        done();
      }
    }, req.signal);
  }

  async function fromCache(req: CompletionRequest, key: string, started: number): Promise<CompletionResult | null> {
    const hit = await run.cache!.get(key);
    if (!hit) return null;
    const saved = price ? costAt(price, hit.usage.promptTokens, hit.usage.completionTokens) : null;
    run.ledger.record(role, req.stage, { calls: 1, cacheHits: 1, costSavedUsd: saved });
    // A cache hit bills nothing, so it reports no tokens: the run's token and cost totals stay what was paid.
    return {
      text: hit.text,
      usage: { promptTokens: 0, completionTokens: 0 },
      latencyMs: Date.now() - started,
      cached: true,
      truncated: hit.truncated === true,
    };
  }

  async function reserve(req: CompletionRequest): Promise<Reservation> {
    const estimate = price
      ? costAt(price, estimatePromptTokens(req), req.maxTokens + (transport.extraOutputTokens ?? 0))
      : null;
    try {
      return await run.budget.reserve(estimate, req.signal);
    } catch (err) {
      if (err instanceof BudgetExhaustedError) throw err;
      throw classifyError(err, backend, { aborted: true });
    }
  }

  return {
    backend,
    model,
    stats: () => run.ledger.statsOf(role)!,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const started = Date.now();
      const key = run.cache
        ? cacheKeyOf({
            backend,
            endpoint: o.endpoint,
            model,
            params: transport.params(req),
            maxTokens: req.maxTokens,
            system: req.system,
            messages: req.messages,
          })
        : null;
      if (key !== null) {
        const cached = await fromCache(req, key, started);
        if (cached) return cached;
      }
      const reservation = await reserve(req);
      const reached = { yes: false };
      let retries = 0;
      let outcome: HedgeOutcome<TransportAnswer>;
      try {
        outcome = await withRetries({
          attempt: () => attempt(req, reached),
          classify: (err) => classifyError(err, backend, { aborted: req.signal?.aborted, authHint: o.authHint }),
          retry: { ...run.retry, maxRetries },
          signal: req.signal,
          onRetry: () => void retries++,
        });
      } catch (err) {
        const e = err instanceof BackendError ? err : classifyError(err, backend);
        if (reached.yes) run.budget.settle(reservation, 0);
        else run.budget.release(reservation);
        run.ledger.record(role, req.stage, { errorKind: e.kind, retries });
        throw e;
      }
      const { answer } = outcome;
      const latencyMs = Date.now() - started;
      const cost = price ? costAt(price, answer.usage.promptTokens, answer.usage.completionTokens) : null;
      run.budget.settle(reservation, outcome.hedged && cost !== null ? 2 * cost : cost);
      run.ledger.record(role, req.stage, { calls: 1, ...answer.usage, latencyMs, retries, costUsd: cost });
      // The aborted request of a hedged pair is billed as the same prompt and answer (an upper bound).
      if (outcome.hedged) run.ledger.record(role, `${req.stage}_hedge`, { calls: 1, ...answer.usage, costUsd: cost });
      if (key !== null) {
        await run.cache!.put(key, {
          text: answer.text,
          usage: answer.usage,
          truncated: answer.truncated === true,
          backend,
          model,
          createdAt: new Date().toISOString(),
        });
      }
      return {
        ...answer,
        text: answer.text,
        usage: answer.usage,
        latencyMs,
        cached: false,
        truncated: answer.truncated === true,
      };
    },
  };
}

/**
 * One target-model call with the benchmark's per-call deadline. Failures become data (timeout / error)
 * so a rollout never throws for a bad model call — except when the run itself was cancelled, or the error
 * carries `stopRun` (fail / pause), which the engine must see as a rejection.
 *
 * An answer cut off by the token limit is not an answer. It is asked again once with a larger limit —
 * twice the call's, capped by `env.truncation_retry_max_tokens` when set — and if that is not possible
 * (the cap is not above the limit), fails, or is cut off again, the outcome is `truncated`.
 */
import type { RunConfig } from "../../contracts/run-config";
import {
  stopRunOf,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResult,
  type ModelClient,
} from "../../engine/ports";

/** The result of `callTarget`: the completion, or why there is none. */
/** Why a call gave no answer: it failed after its retries, ran out of time, or was cut off by the token limit. */
export type CallFailureStatus = "timeout" | "error" | "truncated";

export type TargetCallOutcome =
  { ok: true; result: CompletionResult } | { ok: false; status: CallFailureStatus; failReason: string };

/** Options of `callTarget`. */
export interface TargetCallOptions {
  client: ModelClient;
  /** The request without a signal; the combined signal is added here. */
  request: Omit<CompletionRequest, "signal">;
  /** Per-call deadline in seconds (`env.exec_timeout`); 0 disables it. */
  timeoutSec: number;
  /** The run's cancellation signal. */
  signal?: AbortSignal;
  /** Cap of the retry's token limit after a cut-off answer (`env.truncation_retry_max_tokens`); null/absent = none. */
  retryMaxTokens?: number | null;
}

/** The token limit of the retry after an answer cut off at `limit`: twice it, within the cap. */
export function truncationRetryLimit(limit: number, cap: number | null | undefined): number {
  return cap === null || cap === undefined ? limit * 2 : Math.min(limit * 2, cap);
}

/**
 * Calls the target (see `callOnce`); an answer cut off by the token limit gets one retry with a larger
 * limit. The usage and latency of both attempts are summed, since both were paid for.
 */
export async function callTarget(opts: TargetCallOptions): Promise<TargetCallOutcome> {
  const first = await callOnce(opts);
  if (!first.ok || first.result.truncated !== true) return first;
  const limit = opts.request.maxTokens;
  const larger = truncationRetryLimit(limit, opts.retryMaxTokens);
  const cut = `truncated: the answer was cut off at the ${limit}-token limit`;
  if (larger <= limit) {
    return {
      ok: false,
      status: "truncated",
      failReason: `${cut} (no retry: env.truncation_retry_max_tokens is ${opts.retryMaxTokens})`,
    };
  }
  const second = await callOnce({ ...opts, request: { ...opts.request, maxTokens: larger } });
  if (!second.ok)
    return {
      ok: false,
      status: "truncated",
      failReason: `${cut}; the retry at ${larger} tokens failed (${second.failReason})`,
    };
  if (second.result.truncated === true)
    return { ok: false, status: "truncated", failReason: `${cut}, and again at ${larger} tokens` };
  const a = first.result;
  const b = second.result;
  return {
    ok: true,
    result: {
      ...b,
      latencyMs: a.latencyMs + b.latencyMs,
      usage: {
        promptTokens: a.usage.promptTokens + b.usage.promptTokens,
        completionTokens: a.usage.completionTokens + b.usage.completionTokens,
      },
    },
  };
}

/**
 * One rollout call of the target with the run's settings: its token limit (`env.max_completion_tokens`),
 * reasoning effort, per-call deadline (`env.exec_timeout`) and cap of the truncation retry — the one place
 * every benchmark's rollout reads them from the config.
 */
export function callRolloutTarget(opts: {
  client: ModelClient;
  signal?: AbortSignal;
  config: { env: RunConfig["env"]; model: Pick<RunConfig["model"], "reasoning_effort"> };
  system: string;
  messages: ChatMessage[];
}): Promise<TargetCallOutcome> {
  const { config } = opts;
  return callTarget({
    client: opts.client,
    request: {
      role: "target",
      stage: "rollout",
      system: opts.system,
      messages: opts.messages,
      maxTokens: config.env.max_completion_tokens,
      reasoningEffort: config.model.reasoning_effort || null,
    },
    timeoutSec: config.env.exec_timeout,
    retryMaxTokens: config.env.truncation_retry_max_tokens,
    signal: opts.signal,
  });
}

/**
 * Calls the target with `signal` and a deadline combined. If the run signal aborts, the call rejects
 * with the client's error; if the deadline passes, the outcome is `timeout`; any other failure is `error`.
 * The call is raced against the combined signal, so a client that ignores its signal cannot hang a rollout.
 */
async function callOnce(opts: TargetCallOptions): Promise<TargetCallOutcome> {
  const { client, request, timeoutSec, signal: runSignal } = opts;
  const deadline = timeoutSec > 0 ? AbortSignal.timeout(Math.max(1, Math.round(timeoutSec * 1000))) : undefined;
  const parts = [runSignal, deadline].filter((s): s is AbortSignal => s !== undefined);
  const signal = parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : AbortSignal.any(parts);
  try {
    const result = await raceAbort(client.complete({ ...request, signal }), signal);
    return { ok: true, result };
  } catch (err) {
    // A cancelled run, or an error that must end or pause it (bad key, exhausted quota or budget), is the engine's to handle.
    if (runSignal?.aborted || stopRunOf(err)) throw err;
    if (deadline?.aborted) {
      return { ok: false, status: "timeout", failReason: `timeout: no answer within ${timeoutSec}s` };
    }
    return { ok: false, status: "error", failReason: `error: ${errorMessage(err)}` };
  }
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {}); // the call already started rejects too; its error is not the one reported
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}

function errorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, " ").trim() || "unknown error";
}

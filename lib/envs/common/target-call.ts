/**
 * One target-model call with the benchmark's per-call deadline. Failures become data (timeout / error)
 * so a rollout never throws for a bad model call — except when the run itself was cancelled, or the error
 * carries `stopRun` (fail / pause), which the engine must see as a rejection.
 */
import { stopRunOf, type CompletionRequest, type CompletionResult, type ModelClient } from "../../engine/ports";

/** The result of `callTarget`: the completion, or why there is none. */
export type TargetCallOutcome =
  | { ok: true; result: CompletionResult }
  | { ok: false; status: "timeout" | "error"; failReason: string };

/** Options of `callTarget`. */
export interface TargetCallOptions {
  client: ModelClient;
  /** The request without a signal; the combined signal is added here. */
  request: Omit<CompletionRequest, "signal">;
  /** Per-call deadline in seconds (`env.exec_timeout`); 0 disables it. */
  timeoutSec: number;
  /** The run's cancellation signal. */
  signal?: AbortSignal;
}

/**
 * Calls the target with `signal` and a deadline combined. If the run signal aborts, the call rejects
 * with the client's error; if the deadline passes, the outcome is `timeout`; any other failure is `error`.
 * The call is raced against the combined signal, so a client that ignores its signal cannot hang a rollout.
 */
export async function callTarget(opts: TargetCallOptions): Promise<TargetCallOutcome> {
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
  if (signal.aborted) return Promise.reject(abortReason(signal));
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

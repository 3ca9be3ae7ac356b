/**
 * Provider errors, classified once so the retry policy, the usage counters and the engine agree on what
 * happened. Four kinds: `rate_limited` (429, retried after Retry-After), `transient` (5xx, timeouts,
 * broken connections, malformed bodies; retried), `fatal` (not retried) and `aborted` (the run was
 * cancelled). Fatal errors that no retry or later call can fix — bad credentials, unknown model or
 * deployment, exhausted quota — carry `stopRun: "fail"` so the engine ends the run instead of limping on.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { stopRunOf, type StopRun } from "../engine/ports";

export const ERROR_KINDS = ["rate_limited", "transient", "fatal", "aborted"] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class BackendError extends Error {
  readonly kind: ErrorKind;
  readonly backend: string;
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;
  /** How long the provider asked us to wait (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  readonly stopRun?: StopRun;

  constructor(o: {
    kind: ErrorKind;
    backend: string;
    message: string;
    status?: number;
    retryAfterMs?: number;
    stopRun?: StopRun;
    cause?: unknown;
  }) {
    super(o.message, o.cause === undefined ? undefined : { cause: o.cause });
    this.name = "BackendError";
    this.kind = o.kind;
    this.backend = o.backend;
    this.status = o.status;
    this.retryAfterMs = o.retryAfterMs;
    this.stopRun = o.stopRun;
  }

  get retryable(): boolean {
    return this.kind === "rate_limited" || this.kind === "transient";
  }
}

export interface ClassifyContext {
  /** The run's signal fired: whatever the SDK threw, the call was cancelled. */
  aborted?: boolean;
  /** Our per-attempt timeout fired (seconds), so an SDK abort error means "timed out". */
  timedOutAfterS?: number;
  /** Appended to authentication failures, e.g. "check OPENAI_API_KEY". */
  authHint?: string;
  /** Used to turn an HTTP-date Retry-After into a delay. */
  now?: number;
}

const QUOTA =
  /insufficient[_ ]quota|exceeded your current quota|quota (?:has been |is )?(?:exhausted|exceeded)|credit balance is too low|billing[_ ]hard[_ ]limit/i;

type HeaderBag = { get(name: string): string | null } | Record<string, string | undefined> | undefined | null;

function header(headers: HeaderBag, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as { get?: unknown }).get === "function")
    return (headers as { get(n: string): string | null }).get(name);
  const rec = headers as Record<string, string | undefined>;
  return rec[name] ?? rec[name.toLowerCase()] ?? null;
}

/** Retry-After as milliseconds: `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
export function retryAfterMsOf(headers: HeaderBag, now = Date.now()): number | undefined {
  const ms = Number(header(headers, "retry-after-ms"));
  if (header(headers, "retry-after-ms") !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = header(headers, "retry-after")?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** One line of a provider's message: whitespace collapsed, HTML pages and long bodies cut short. */
function brief(text: string): string {
  const flat = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > 240 ? `${flat.slice(0, 240)}…` : flat;
}

type HttpLike = { status: number; headers?: HeaderBag; error?: unknown; message?: string };

function isHttpError(err: unknown): err is HttpLike {
  return typeof err === "object" && err !== null && typeof (err as { status?: unknown }).status === "number";
}

function fromHttp(err: HttpLike, backend: string, ctx: ClassifyContext): BackendError {
  const status = err.status;
  const body = err.error === undefined ? "" : JSON.stringify(err.error);
  const detail = brief(err.message ?? "") || `HTTP ${status}`;
  const base = { backend, status, cause: err };
  const msg = (what: string) => `${backend}: ${what} (HTTP ${status}): ${detail}`;
  if (
    QUOTA.test(`${body} ${err.message ?? ""}`) &&
    (status === 429 || status === 400 || status === 402 || status === 403)
  ) {
    return new BackendError({
      ...base,
      kind: "fatal",
      stopRun: "fail",
      message: msg("quota or credit exhausted; retrying cannot help"),
    });
  }
  if (status === 429) {
    return new BackendError({
      ...base,
      kind: "rate_limited",
      retryAfterMs: retryAfterMsOf(err.headers, ctx.now),
      message: msg("rate limited"),
    });
  }
  if (status === 401 || status === 403) {
    const hint = ctx.authHint ? `; ${ctx.authHint}` : "";
    return new BackendError({
      ...base,
      kind: "fatal",
      stopRun: "fail",
      message: `${msg("authentication failed")}${hint}`,
    });
  }
  if (status === 404) {
    return new BackendError({
      ...base,
      kind: "fatal",
      stopRun: "fail",
      message: msg("model, deployment or endpoint not found"),
    });
  }
  if (status === 408 || status === 409 || status === 425 || status >= 500) {
    return new BackendError({
      ...base,
      kind: "transient",
      retryAfterMs: retryAfterMsOf(err.headers, ctx.now),
      message: msg("server error"),
    });
  }
  return new BackendError({ ...base, kind: "fatal", message: msg("request refused") });
}

/** The error's class: the SDK classes by instanceof (the openai SDK leaves `name` as "Error"), others by name. */
function nameOf(err: unknown): string {
  if (err instanceof OpenAI.APIConnectionTimeoutError || err instanceof Anthropic.APIConnectionTimeoutError)
    return "APIConnectionTimeoutError";
  if (err instanceof OpenAI.APIUserAbortError || err instanceof Anthropic.APIUserAbortError) return "APIUserAbortError";
  if (err instanceof OpenAI.APIConnectionError || err instanceof Anthropic.APIConnectionError)
    return "APIConnectionError";
  return (err as { name?: unknown } | null)?.name === undefined ? "" : String((err as { name: unknown }).name);
}

/**
 * Turns anything an SDK (openai, @anthropic-ai/sdk), fetch or our own code threw into a BackendError.
 * HTTP errors are judged by status and body (a non-JSON body still yields its status); connection
 * failures, timeouts and unparseable success bodies are transient; cancellations are aborted.
 */
export function classifyError(err: unknown, backend: string, ctx: ClassifyContext = {}): BackendError {
  if (err instanceof BackendError) return err;
  const name = nameOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (ctx.aborted)
    return new BackendError({ kind: "aborted", backend, message: `${backend}: call cancelled`, cause: err });
  if (ctx.timedOutAfterS !== undefined || name === "APIConnectionTimeoutError" || name === "TimeoutError") {
    const after = ctx.timedOutAfterS === undefined ? "" : ` after ${ctx.timedOutAfterS}s`;
    return new BackendError({ kind: "transient", backend, message: `${backend}: timed out${after}`, cause: err });
  }
  if (name === "APIUserAbortError" || name === "AbortError") {
    return new BackendError({ kind: "aborted", backend, message: `${backend}: call cancelled`, cause: err });
  }
  if (isHttpError(err)) return fromHttp(err, backend, ctx);
  if (
    name === "APIConnectionError" ||
    (err instanceof TypeError && /fetch failed|network|socket|ECONN/i.test(message))
  ) {
    const cause = (err as { cause?: unknown }).cause;
    const why = cause instanceof Error ? `: ${brief(cause.message)}` : "";
    return new BackendError({ kind: "transient", backend, message: `${backend}: connection failed${why}`, cause: err });
  }
  if (err instanceof SyntaxError) {
    return new BackendError({
      kind: "transient",
      backend,
      message: `${backend}: malformed response body (${brief(message)})`,
      cause: err,
    });
  }
  // An error that already says how the run must stop (an exec CLI that cannot start) keeps saying so.
  const stopRun = stopRunOf(err);
  const keep = stopRun ? { stopRun } : {};
  const text = message.startsWith(`${backend}:`) ? message : `${backend}: ${brief(message) || "unknown error"}`;
  return new BackendError({ kind: "fatal", backend, message: text, cause: err, ...keep });
}

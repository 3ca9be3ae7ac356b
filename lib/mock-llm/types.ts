/**
 * Options, fault knobs and statistics of the mock LLM server. Every probability is per model request
 * and drawn from a seeded counter, so the same options and request order give the same faults.
 */
import type { SimKnowledge } from "../contracts/sim";
import type { LatencyDist } from "./latency";
import type { RateLimitOptions } from "./rate-window";

/**
 * Added delay before each model answer. `byStage[stage]` wins (stages: rollout for target calls, the
 * engine's accounting stage for optimizer calls), then `dist`, then `fixedMs`, then `meanMs` ± a uniform
 * `jitterMs` (seeded). See `./latency` for the distributions.
 */
export interface MockLatency {
  fixedMs?: number;
  meanMs?: number;
  jitterMs?: number;
  /** A distribution for every stage without its own (fixed, or lognormal with an optional slow tail). */
  dist?: LatencyDist;
  /** Per-stage distributions, e.g. `{ rollout: lognormal…, analyst: fixed… }`. */
  byStage?: Record<string, LatencyDist>;
}

/** Injected failures, each a probability in [0, 1] per model request. */
export interface MockFaults {
  /** 429 with a `Retry-After` header. */
  rate429?: number;
  /** Value of that header in seconds (default 1). */
  retryAfterSeconds?: number;
  /** 429 with an `insufficient_quota` body and no `Retry-After`: retrying does not help. */
  quotaExhaustedRate?: number;
  /** 500 with a server-error body. */
  rate500?: number;
  /** Never answer; the request ends only when the client gives up. */
  hangRate?: number;
  /** 200 whose body is cut-off JSON. */
  malformedJsonRate?: number;
  /** 200 whose text is cut in half, reported as stopped by the token limit. */
  truncatedRate?: number;
  /** Seed of the fault draws (default: the server's seed). */
  seed?: number;
  /** Only requests of these roles meet faults (default: both); the others are always answered. */
  roles?: MockRole[];
  /**
   * Draw per prompt (system + messages) instead of per request: the same prompt always meets the same
   * fault, so retries cannot help — "fails after retries" — whatever order concurrent requests arrive in.
   */
  byPrompt?: boolean;
}

export const FAULT_KINDS = ["quotaExhausted", "rate429", "rate500", "hang", "malformedJson", "truncated"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface MockLlmOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** What the sim knows about items and rules; default: both built-in samples. */
  knowledge?: SimKnowledge | null;
  seed?: number;
  slipRate?: number;
  unhelpfulRate?: number;
  malformedRate?: number;
  latency?: MockLatency;
  faults?: MockFaults;
  /** When set, every model endpoint answers 401 unless the request carries this key. */
  requireKey?: string;
  /** An enforced request limit (429 beyond it, with Retry-After and x-ratelimit-* headers); default none. */
  rateLimit?: RateLimitOptions;
}

export type MockEndpoint =
  "chat.completions" | "azure.chat.completions" | "responses" | "messages" | "models" | "unknown";
export type MockRole = "optimizer" | "target";

export interface MockStats {
  /** Every request except `GET /stats`. */
  requests: number;
  byEndpoint: Partial<Record<MockEndpoint, number>>;
  byRole: Record<MockRole, number>;
  /** Faults injected, by kind. */
  faults: Record<FaultKind, number>;
  /** Responses sent, by HTTP status ("200", "429" …). */
  byStatus: Record<string, number>;
  /** Requests whose client went away before an answer was sent (every released hang counts here). */
  aborted: number;
  tokens: { prompt: number; completion: number; total: number };
  inFlight: number;
  /** Most requests open at the same time since start or the last reset. */
  maxInFlight: number;
}

export interface MockLlmServer {
  /** Base URL without a path, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  stats(): MockStats;
  resetStats(): void;
  /** Replaces the fault knobs and restarts their draw sequence. */
  setFaults(faults: MockFaults): void;
  close(): Promise<void>;
}

export const MOCK_DEFAULTS = {
  host: "127.0.0.1",
  seed: 42,
  slipRate: 0.04,
  unhelpfulRate: 0.25,
  malformedRate: 0,
  retryAfterSeconds: 1,
} as const;

/**
 * The mock server's latency model: per-stage delay distributions that reproduce the shapes real model
 * calls have (a fixed delay, a lognormal with a median and a sigma, and a slow-tail fraction of calls that
 * take `slowFactor` times longer). Draws are seeded and keyed by the prompt and how many times that prompt
 * was seen, so the same requests give the same delays whatever order concurrent requests arrive in, while
 * a repeated (hedged or retried) request gets a fresh, independent draw.
 */
import { createHash } from "node:crypto";
import { draw } from "../backends/sim/parse";
import { SIGNATURES, type PromptKind } from "../engine/prompts/common";

/** One delay distribution. */
export type LatencyDist =
  | { kind: "fixed"; ms: number }
  | {
      kind: "lognormal";
      /** Median delay in ms (the lognormal's exp(mu)). */
      medianMs: number;
      /** Standard deviation of the log delay (0 = always the median). */
      sigma: number;
      /** Share of calls in the slow tail, in [0, 1] (default 0). */
      slowFraction?: number;
      /** How many times longer a slow-tail call takes (default 10). */
      slowFactor?: number;
    };

/** The engine's accounting stage of each optimizer prompt (what `CompletionRequest.stage` says). */
const STAGE_OF_KIND: Record<PromptKind, string> = {
  failureAnalyst: "analyst",
  successAnalyst: "analyst",
  mergeFailure: "merge",
  mergeSuccess: "merge",
  mergeFinal: "merge",
  ranking: "ranking",
  lrAutonomous: "lr_autonomous",
  rewrite: "rewrite",
  slowUpdate: "slow_update",
  metaSkill: "meta_skill",
  consolidate: "appendix_consolidate",
};

/** Stage names a per-stage distribution may be given for. */
export const LATENCY_STAGES: readonly string[] = ["rollout", ...new Set(Object.values(STAGE_OF_KIND))];

/** The stage of a request from its system prompt: an optimizer signature's stage, else "rollout". */
export function stageOfPrompt(system: string): string {
  const first = system.trimStart().split("\n", 1)[0] ?? "";
  for (const [kind, sig] of Object.entries(SIGNATURES) as Array<[PromptKind, string]>) {
    if (first.startsWith(sig)) return STAGE_OF_KIND[kind];
  }
  return "rollout";
}

/** A standard normal value from two uniforms in [0, 1) (Box–Muller; u1 kept away from 0). */
export function normalFrom(u1: number, u2: number): number {
  const u = Math.max(u1, 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * u2);
}

/** The delay of one call under `dist`, from three uniforms in [0, 1). */
export function sampleLatency(dist: LatencyDist, u: readonly [number, number, number]): number {
  if (dist.kind === "fixed") return Math.max(0, Math.round(dist.ms));
  const base = dist.medianMs * Math.exp(dist.sigma * normalFrom(u[0], u[1]));
  const slow = u[2] < (dist.slowFraction ?? 0) ? (dist.slowFactor ?? 10) : 1;
  return Math.max(0, Math.round(base * slow));
}

/** Checks a distribution; throws an Error naming `field` and the bad value. */
export function checkLatencyDist(dist: LatencyDist, field: string): LatencyDist {
  const bad = (what: string) => {
    throw new Error(`${field}: ${what}`);
  };
  const nonNeg = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
  if (dist.kind === "fixed") {
    if (!nonNeg(dist.ms)) bad(`fixed delay must be a number of ms ≥ 0 (got ${String(dist.ms)})`);
    return dist;
  }
  if (dist.kind !== "lognormal") bad(`unknown distribution '${String((dist as { kind: unknown }).kind)}'`);
  if (!nonNeg(dist.medianMs)) bad(`median must be a number of ms ≥ 0 (got ${String(dist.medianMs)})`);
  if (!nonNeg(dist.sigma) || dist.sigma > 5) bad(`sigma must be between 0 and 5 (got ${String(dist.sigma)})`);
  const f = dist.slowFraction ?? 0;
  if (!nonNeg(f) || f > 1) bad(`slow-tail fraction must be between 0 and 1 (got ${String(f)})`);
  const x = dist.slowFactor ?? 10;
  if (!nonNeg(x) || x < 1) bad(`slow-tail factor must be ≥ 1 (got ${String(x)})`);
  return dist;
}

/**
 * Parses `fixed:MS` or `lognormal:MEDIAN_MS:SIGMA[:SLOW_FRACTION[:SLOW_FACTOR]]` (the CLI's form).
 * Throws an Error naming `field`.
 */
export function parseLatencyDist(spec: string, field: string): LatencyDist {
  const parts = spec.trim().split(":");
  const nums = parts.slice(1).map((p) => (p.trim() === "" ? Number.NaN : Number(p)));
  if (parts[0] === "fixed" && nums.length === 1) return checkLatencyDist({ kind: "fixed", ms: nums[0]! }, field);
  if (parts[0] === "lognormal" && nums.length >= 2 && nums.length <= 4) {
    const [medianMs, sigma, slowFraction, slowFactor] = nums as [number, number, number?, number?];
    return checkLatencyDist({ kind: "lognormal", medianMs, sigma, slowFraction, slowFactor }, field);
  }
  throw new Error(
    `${field}: expected fixed:MS or lognormal:MEDIAN_MS:SIGMA[:SLOW_FRACTION[:SLOW_FACTOR]] (got '${spec}')`,
  );
}

/** One line for a distribution, e.g. "lognormal median 1000 ms σ 1 (2% ×10 slow)". */
export function describeLatencyDist(d: LatencyDist): string {
  if (d.kind === "fixed") return `${d.ms} ms`;
  const tail = d.slowFraction ? ` (${Math.round(d.slowFraction * 1000) / 10}% ×${d.slowFactor ?? 10} slow)` : "";
  return `lognormal median ${d.medianMs} ms σ ${d.sigma}${tail}`;
}

/** A delay picker; `done(promptKey)` when the request of a pick has ended (answered, failed or abandoned). */
export interface DistributionPicker {
  (system: string, promptKey: string): number;
  done(promptKey: string): void;
}

/**
 * Delay picker for the distribution model: `byStage[stage]` when given, else `dist`, else null (the
 * caller falls back to the older fixed / mean ± jitter knobs). Keyed by (seed, prompt, occurrence).
 * A request whose prompt is already in flight (a client's hedge or duplicate) draws from its own stream
 * and does not count as an occurrence: the next fresh request of that prompt gets the same delay whether
 * or not it was duplicated, so a run with hedging and one without see the same latency per request.
 */
export function createDistributionPicker(
  dist: LatencyDist | undefined,
  byStage: Readonly<Record<string, LatencyDist>> | undefined,
  seed: number,
): DistributionPicker | null {
  if (!dist && (!byStage || Object.keys(byStage).length === 0)) return null;
  const keyOf = (promptKey: string) => createHash("sha256").update(promptKey).digest("base64url").slice(0, 16);
  const seen = new Map<string, number>();
  const seenDup = new Map<string, number>();
  const running = new Map<string, number>();
  const pick = (system: string, promptKey: string) => {
    const key = keyOf(promptKey);
    const inFlight = running.get(key) ?? 0;
    running.set(key, inFlight + 1);
    const d = byStage?.[stageOfPrompt(system)] ?? dist;
    if (!d) return 0;
    const counts = inFlight === 0 ? seen : seenDup;
    const stream = inFlight === 0 ? "mock-latency-dist" : "mock-latency-dist-dup";
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    const u = [0, 1, 2].map((i) => draw(seed, stream, key, n, i)) as [number, number, number];
    return sampleLatency(d, u);
  };
  const done = (promptKey: string) => {
    const key = keyOf(promptKey);
    const n = running.get(key) ?? 0;
    if (n <= 1) running.delete(key);
    else running.set(key, n - 1);
  };
  return Object.assign(pick, { done });
}

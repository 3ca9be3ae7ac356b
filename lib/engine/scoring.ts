/**
 * Scoring utilities (spec §16) and the failure/success predicates of reflection (spec §7.2), with the
 * original's Python truthiness so a NaN or negative `hard` lands in the same bucket as there.
 */
import { createHash } from "node:crypto";
import type { Score } from "./types";

/** Python `bool(v)` for the JSON-ish values a rollout row can hold. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === "boolean") return v;
  // NaN is truthy in Python, unlike JS.
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
  if (v instanceof Map || v instanceof Set) return v.size > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

const PY_FLOAT_TEXT = /^[+-]?(\d+(_\d+)*)?(\.(\d+(_\d+)*)?)?([eE][+-]?\d+(_\d+)*)?$/;

/** Python `float(v)` for a score field; a missing (null/undefined) field counts as 0. */
function scoreValue(v: unknown, field: string): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    const t = v.trim();
    const lower = t.toLowerCase().replace(/^[+-]/, "");
    if (lower === "nan") return NaN;
    if (lower === "inf" || lower === "infinity") return t.startsWith("-") ? -Infinity : Infinity;
    if (t !== "" && t !== "." && PY_FLOAT_TEXT.test(t) && /\d/.test(t)) return Number(t.replace(/_/g, ""));
  }
  // Python's float() raises here too; a row with such a score is a bug upstream, not an outcome.
  throw new TypeError(`${field} must be a number, got ${typeof v === "string" ? JSON.stringify(v) : typeof v}`);
}

/** Mean hard and soft score over rollout rows; an empty list scores (0, 0) rather than NaN. */
export function computeScore(rows: ReadonlyArray<{ hard?: unknown; soft?: unknown }>): Score {
  if (rows.length === 0) return { hard: 0, soft: 0 };
  let hard = 0;
  let soft = 0;
  for (const r of rows) {
    hard += scoreValue(r.hard, "hard");
    soft += scoreValue(r.soft, "soft");
  }
  return { hard: hard / rows.length, soft: soft / rows.length };
}

/**
 * First 16 lower-case hex characters of SHA-256 over the UTF-8 bytes. Lone surrogates (which Python
 * refuses to encode) are hashed as U+FFFD by Node; skills never contain them in practice.
 */
export function skillHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/**
 * Python `round(x, ndigits)` for 0 ≤ ndigits ≤ 20, bit-exact: both sides round the exact binary value
 * of x. `toFixed` already does that except on exact ties, where it rounds away from zero while Python
 * rounds half to even. A tie needs x·10^n = k + ½ exactly, which for a double means x·2^(n+1) is an odd
 * integer, so ties are detected exactly and resolved with integer arithmetic.
 */
export function pyRoundTo(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (!Number.isInteger(ndigits) || ndigits < 0 || ndigits > 20) {
    throw new RangeError(`pyRoundTo supports 0..20 digits, got ${ndigits}`);
  }
  if (Math.abs(x) >= 1e21) return x;
  const scaled = x * 2 ** (ndigits + 1);
  let text: string;
  if (Number.isInteger(scaled) && Math.abs(scaled) % 2 === 1) {
    // x = q / 2^(n+1) with q odd, so x·10^n = q·5^n / 2: the two neighbours are (q·5^n ± 1) / 2.
    const twice = BigInt(scaled) * 5n ** BigInt(ndigits);
    const down = (twice - 1n) / 2n;
    const rounded = down % 2n === 0n ? down : down + 1n;
    text = `${rounded}e-${ndigits}`;
  } else {
    text = x.toFixed(ndigits);
  }
  const r = Number(text);
  // Python keeps the sign of a value that rounds to zero (round(-1e-7, 6) is -0.0).
  return r === 0 && x < 0 ? -0 : r;
}

/** Python `round(x, 6)`, used for step-level aggregates (spec §16); exact, see {@link pyRoundTo}. */
export function round6(x: number): number {
  return pyRoundTo(x, 6);
}

/**
 * A reflection failure: `hard` falsy or below 1e-9 (spec §7.2). Negative and tiny positive scores are
 * both failures and successes; NaN is neither a failure nor falsy, so it is only a success.
 */
export function isFailure(hard: unknown): boolean {
  if (!pyTruthy(hard)) return true;
  return (typeof hard === "number" || typeof hard === "boolean") && Number(hard) < 1e-9;
}

/** A reflection success: `hard` truthy in Python's sense, so a fractional 0.5 counts (spec §7.2). */
export function isSuccess(hard: unknown): boolean {
  return pyTruthy(hard);
}

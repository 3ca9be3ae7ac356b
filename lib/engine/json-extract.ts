/**
 * Tolerant JSON extraction from LLM replies (spec §15). Both entry points return null instead of
 * throwing: callers treat null as "no output" and take their fallbacks. Every scan is linear so a
 * hostile megabyte of braces cannot stall a worker.
 */
import { jsonrepair } from "jsonrepair";
import { PY_WS_CLASS } from "./py-format";

const FENCE_OPEN = "```json";
const FENCE_CLOSE = "```";
const LEADING_WS = new RegExp(`^[${PY_WS_CLASS}]*`);
const WS_CHAR = new RegExp(`^[${PY_WS_CLASS}]$`);

type Parsed = { ok: true; value: unknown } | { ok: false };

function tryParse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Unparseable is an expected outcome here; the caller moves on to the next strategy.
    return { ok: false };
  }
}

/**
 * Content of the first ```json fence (case-sensitive tag), leading whitespace skipped, up to the next
 * three backticks; null when there is no complete fence. Done with indexOf rather than the equivalent
 * lazy regex, whose `\s*` backtracking is quadratic on long whitespace runs.
 */
function fencedContent(text: string): string | null {
  const open = text.indexOf(FENCE_OPEN);
  if (open < 0) return null;
  let start = open + FENCE_OPEN.length;
  while (start < text.length && WS_CHAR.test(text[start]!)) start++;
  const close = text.indexOf(FENCE_CLOSE, start);
  return close < 0 ? null : text.slice(start, close);
}

/**
 * Spans of top-level `{…}` objects. Double-quoted strings (with backslash escapes) are skipped both
 * outside and inside objects, so braces in quoted prose do not count. An unterminated object ends the
 * scan. `limit` stops early: callers only need to know whether there is exactly one.
 */
function topLevelObjects(text: string, limit: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const n = text.length;
  let i = 0;
  let inString = false;
  let depth = 0;
  let start = -1;
  while (i < n && spans.length < limit) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0) spans.push([start, i + 1]);
    }
    i++;
  }
  return spans;
}

/** Exactly one top-level object in `text` → its span, else null. */
function singleObjectSpan(text: string): string | null {
  const spans = topLevelObjects(text, 2);
  if (spans.length !== 1) return null;
  const [s, e] = spans[0]!;
  return text.slice(s, e);
}

/** Rejects brace prose such as `{op: delete}` before it reaches the repair library. */
function looksLikeJsonObject(candidate: string): boolean {
  const t = candidate.replace(LEADING_WS, "");
  let end = t.length;
  while (end > 0 && WS_CHAR.test(t[end - 1]!)) end--;
  if (!t.startsWith("{") || end === 0 || t[end - 1] !== "}") return false;
  let k = 1;
  while (k < end && WS_CHAR.test(t[k]!)) k++;
  return t[k] === '"' || t[k] === "}";
}

function isNonEmptyPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0;
}

function repairObject(candidate: string): Record<string, unknown> | null {
  try {
    const repaired = tryParse(jsonrepair(candidate));
    return repaired.ok && isNonEmptyPlainObject(repaired.value) ? repaired.value : null;
  } catch {
    // jsonrepair throws on text it cannot fix (and RangeError on absurd nesting): both mean "no JSON".
    return null;
  }
}

/**
 * The JSON value in an LLM reply: a parseable ```json fence, else the greedy first-`{`-to-last-`}` span,
 * else a repaired single object (which must look like JSON and repair to a non-empty object), else null.
 */
export function extractJson(text: string): unknown {
  if (typeof text !== "string") return null;
  const fenced = fencedContent(text);
  if (fenced !== null) {
    const p = tryParse(fenced);
    if (p.ok) return p.value;
  }
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) {
    const p = tryParse(text.slice(first, last + 1));
    if (p.ok) return p.value;
  }
  // The repair candidate is chosen before repairing, so repair can never pick between two objects.
  const candidate = fenced !== null && topLevelObjects(fenced, 2).length === 1 ? fenced : singleObjectSpan(text);
  if (candidate === null || !looksLikeJsonObject(candidate)) return null;
  return repairObject(candidate);
}

/**
 * A one-pass scanner state for double-quoted JSON strings with backslash escapes: `step(c)` returns
 * true while `c` is inside (or closes) a string, so brackets there are not structural.
 */
function stringTracker(): (c: string) => boolean {
  let inString = false;
  let escaped = false;
  return (c) => {
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
      return true;
    }
    if (c === '"') {
      inString = true;
      return true;
    }
    return false;
  };
}

/** Matching `}` for every `{` outside strings, via a stack in one pass (-1 when unmatched). */
function braceEnds(text: string): Int32Array {
  const ends = new Int32Array(text.length).fill(-1);
  const stack: number[] = [];
  const inString = stringTracker();
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString(c)) continue;
    if (c === "{") stack.push(i);
    else if (c === "}" && stack.length > 0) ends[stack.pop()!] = i;
  }
  return ends;
}

/**
 * Balanced top-level `[…]` spans, as the original scans them: brackets inside double-quoted strings
 * do not count (outside and inside a span), balanced `{…}` objects are skipped with the arrays in them,
 * an unmatched `{` is stepped over, and an unterminated `[` ends the scan. Linear: every character is
 * visited once by the outer or the inner loop.
 */
function topLevelArrays(text: string): string[] {
  const ends = braceEnds(text);
  const spans: string[] = [];
  const n = text.length;
  const outerString = stringTracker();
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (outerString(c)) {
      i++;
      continue;
    }
    if (c === "{") {
      i = ends[i]! >= 0 ? ends[i]! + 1 : i + 1;
      continue;
    }
    if (c !== "[") {
      i++;
      continue;
    }
    const start = i;
    const innerString = stringTracker();
    let depth = 0;
    let closed = false;
    for (; i < n; i++) {
      const d = text[i]!;
      if (innerString(d)) continue;
      if (d === "[") depth++;
      else if (d === "]" && --depth === 0) {
        spans.push(text.slice(start, i + 1));
        i++;
        closed = true;
        break;
      }
    }
    if (!closed) break;
  }
  return spans;
}

/**
 * The one JSON array in an LLM reply: a parseable ```json fence holding an array, else the only
 * top-level `[…]` span (see `topLevelArrays`) that parses as a list. Null when zero or several qualify.
 */
export function extractJsonArray(text: string): unknown[] | null {
  if (typeof text !== "string") return null;
  const fenced = fencedContent(text);
  if (fenced !== null) {
    const p = tryParse(fenced);
    // A fence that parses to a non-list is final, as in the original: callers saw a non-list there.
    if (p.ok) return Array.isArray(p.value) ? p.value : null;
  }
  const found: unknown[][] = [];
  for (const span of topLevelArrays(text)) {
    const p = tryParse(span);
    if (p.ok && Array.isArray(p.value)) found.push(p.value);
  }
  return found.length === 1 ? found[0]! : null;
}

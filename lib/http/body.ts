/**
 * Request bodies read with a size cap and JSON checked for nesting depth before anything else sees it.
 * The cap is enforced while streaming, so a body without Content-Length (or one Next's proxy cut short at
 * its own limit) is refused as too large instead of failing later as "not valid JSON" or "not multipart".
 */
import { AppError } from "../errors";

/** JSON API bodies: a 200 KB skill with every character escaped (`\uXXXX`) still fits. */
export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;
/** Deeper JSON is refused: nothing we accept nests past a handful of levels, and deep values crash recursive code. */
export const MAX_JSON_DEPTH = 64;

const MIB = 1024 * 1024;

/** A size over `limit` for messages, in MB with one decimal; rounded up when rounding would make it read as the limit. */
export function sizeText(bytes: number, limit: number): string {
  const tenths = (bytes / MIB) * 10;
  const shown = Math.round(tenths) * (MIB / 10) > limit ? Math.round(tenths) : Math.ceil(tenths);
  return `${(shown / 10).toFixed(1)} MB`;
}

/** A limit for messages: "20 MB", "2 MB", "0.5 MB". */
export function limitText(bytes: number): string {
  const mb = bytes / MIB;
  return `${Number.isInteger(mb) ? mb : Number(mb.toFixed(2))} MB`;
}

export type CappedBody = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; size: number | null };

/** Reads at most `maxBytes`; `size` is the declared length when one was sent, else null (only "more"). */
export async function readCapped(req: Request, maxBytes: number): Promise<CappedBody> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, size: declared };
  if (!req.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, size: null };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, bytes };
}

/**
 * Where a parsed JSON value first nests deeper than `maxDepth` (a scalar is depth 0, `[1]` depth 1), as
 * the path of keys/indexes from the top; null when it does not. Iterative, so a hostile value cannot
 * overflow the stack while it is being measured.
 */
export function findTooDeep(value: unknown, maxDepth: number): Array<string | number> | null {
  const stack: Array<{ v: unknown; depth: number; path: Array<string | number> }> = [{ v: value, depth: 0, path: [] }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > maxDepth) return path;
    // Only the first few path segments are kept: enough to name the field, bounded in memory.
    const child = (k: string | number) => (path.length < 8 ? [...path, k] : path);
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, depth: depth + 1, path: child(i) }));
    else for (const [k, x] of Object.entries(v)) stack.push({ v: x, depth: depth + 1, path: child(k) });
  }
  return null;
}

export interface JsonBodyOptions {
  maxBytes?: number;
  /** Appended to the too-large message, e.g. what usually makes such a body big. */
  hint?: string;
}

/** A run request (create, estimate): the seed skill is what makes one big, so the too-large message names its limit. */
export const RUN_REQUEST_BODY: JsonBodyOptions = { hint: " (the skill may be at most 200 KB)" };

/** Parses a JSON body: too large → 413 naming the limit; malformed or nested too deep → 422. */
export async function jsonBody(req: Request, opts: JsonBodyOptions = {}): Promise<unknown> {
  const maxBytes = opts.maxBytes ?? MAX_JSON_BODY_BYTES;
  const body = await readCapped(req, maxBytes);
  if (!body.ok) {
    const limit = limitText(maxBytes);
    const what =
      body.size === null ? `over the ${limit} limit` : `${sizeText(body.size, maxBytes)}; the limit is ${limit}`;
    throw new AppError("PAYLOAD_TOO_LARGE", `body: the request body is ${what}${opts.hint ?? ""}`, { field: "body" });
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body.bytes));
  } catch {
    throw new AppError("INVALID_REQUEST", "body: the request body is not valid JSON", { field: "body" });
  }
  const deep = findTooDeep(value, MAX_JSON_DEPTH);
  if (deep) {
    const field = deep.length > 0 ? String(deep[0]) : "body";
    throw new AppError("INVALID_REQUEST", `${field}: nested deeper than ${MAX_JSON_DEPTH} levels`, { field });
  }
  return value;
}

/**
 * Opt-in response cache (`model.cache: true`): successful answers stored as JSON files under a
 * directory, keyed by the sha256 of everything that shapes the answer — backend, endpoint, model,
 * parameters actually sent, max tokens, system prompt and messages. Errors are never stored. Files are
 * written atomically (temp file + rename), so concurrent runs sharing the directory never read half a file.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatMessage } from "../../engine/ports";

/** Bump when the key material or the entry shape changes, so old entries stop matching. */
const CACHE_VERSION = 1;

export interface CacheKeyParts {
  backend: string;
  /** The endpoint (base URL), so two servers serving the same model name do not share answers. */
  endpoint: string;
  model: string;
  /** Request parameters that change the answer (reasoning effort sent, thinking budget, temperature…). */
  params: Record<string, unknown>;
  maxTokens: number;
  system: string;
  messages: ChatMessage[];
}

export interface CacheEntry {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
  /** The answer was cut off by the token limit (absent in entries written before this was kept). */
  truncated?: boolean;
  backend: string;
  model: string;
  createdAt: string;
}

/** A stable JSON text: object keys sorted, so `{a, b}` and `{b, a}` hash alike. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function cacheKeyOf(parts: CacheKeyParts): string {
  return createHash("sha256")
    .update(stableJson({ v: CACHE_VERSION, ...parts }))
    .digest("hex");
}

function isEntry(v: unknown): v is CacheEntry {
  const e = v as CacheEntry | null;
  return (
    typeof e?.text === "string" &&
    typeof e.usage?.promptTokens === "number" &&
    typeof e.usage?.completionTokens === "number"
  );
}

export class ResponseCache {
  /** Entries that could not be written (disk full, permissions); the calls themselves succeeded. */
  writeErrors = 0;
  lastWriteError: string | null = null;

  constructor(readonly dir: string) {}

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The stored answer, or null when absent or unreadable (a corrupt file is treated as a miss). */
  async get(key: string): Promise<CacheEntry | null> {
    let raw: string;
    try {
      raw = await readFile(this.pathOf(key), "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    try {
      const parsed: unknown = JSON.parse(raw);
      return isEntry(parsed) ? parsed : null;
    } catch {
      return null; // a torn or hand-edited file: answer from the provider and overwrite it
    }
  }

  /** Stores a successful answer. A failed write is counted, not thrown: the answer is still good. */
  async put(key: string, entry: CacheEntry): Promise<void> {
    const path = this.pathOf(key);
    const tmp = `${path}.${randomUUID()}.tmp`;
    try {
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFile(tmp, JSON.stringify(entry));
      await rename(tmp, path);
    } catch (err) {
      this.writeErrors++;
      this.lastWriteError = err instanceof Error ? err.message : String(err);
    }
  }
}

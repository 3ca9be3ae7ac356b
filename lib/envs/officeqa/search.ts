/**
 * `search_mode: custom_search`: the agent asks for web searches in text — a
 * `<search_queries>["…", "…"]</search_queries>` block — and each query is POSTed as
 * `{query, max_num_results, provider}` to a search service, with the raw Authorization header taken from
 * the variable named by `env.search_auth_env`. Transient failures (408, 429, 5xx, connection errors,
 * timeouts) are retried with 1 s·2^k backoff; results in any of the common list shapes are normalised to
 * title / url / snippet. `fetch` and `sleep` are injected so tests run against a local server, instantly.
 */
import { isRecord } from "../common/read-items";

/** Where and how to search. */
export interface SearchSettings {
  url: string;
  /** The raw Authorization header value, or null for none. */
  auth: string | null;
  provider: string;
  maxResults: number;
  timeoutSec: number;
  maxQueriesPerTurn: number;
}

/** Injected I/O. */
export interface SearchDeps {
  fetch: typeof fetch;
  sleep(ms: number): Promise<void>;
}

/** One normalised search hit. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** The default search service when neither env.search_api_url nor OFFICEQA_SEARCH_API_URL is set. */
export const DEFAULT_SEARCH_URL = "http://localhost:8080/search_tool/search";
/** Retries after the first attempt. */
export const SEARCH_RETRIES = 4;
const SNIPPET_MAX_CHARS = 600;

const QUERIES_TAG = /<search_queries>([\s\S]*?)(?:<\/search_queries>|$)/i;

/**
 * The queries of a reply, deduplicated in order, or null when it has no `<search_queries>` block. The
 * block may hold a JSON list, an object with `queries`/`search_queries`/`query`, a JSON string, or plain
 * text split by lines, then by `;` or `,`.
 */
export function parseSearchQueries(reply: string): string[] | null {
  const m = QUERIES_TAG.exec(reply);
  if (!m) return null;
  const body = (m[1] ?? "").trim();
  let list: unknown[] | null = null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (Array.isArray(parsed)) list = parsed;
    else if (typeof parsed === "string") list = [parsed];
    else if (isRecord(parsed)) {
      const v = parsed.queries ?? parsed.search_queries ?? parsed.query;
      list = Array.isArray(v) ? v : typeof v === "string" ? [v] : null;
    }
  } catch {
    list = null;
  }
  if (list === null) {
    const lines = body
      .split(/\r?\n/)
      .map((l) => l.replace(/^\s*(?:[-*]|\d+[.)])\s*/, "").trim())
      .filter((l) => l !== "");
    list = lines.length > 1 ? lines : body.split(/[;,]/);
  }
  const out: string[] = [];
  for (const q of list) {
    const text =
      typeof q === "string"
        ? q
            .trim()
            .replace(/^["']|["']$/g, "")
            .trim()
        : "";
    if (text !== "" && !out.includes(text)) out.push(text);
  }
  return out;
}

const LIST_KEYS = ["results", "items", "data", "organic", "organic_results", "search_results", "webPages", "value"];

function firstString(o: Record<string, unknown>, keys: readonly string[]): string {
  for (const k of keys) if (typeof o[k] === "string" && (o[k] as string).trim() !== "") return (o[k] as string).trim();
  return "";
}

/** The hits of a search response body, whatever list key and field names it uses. */
export function normaliseSearchResults(body: unknown): SearchHit[] {
  let list: unknown = body;
  for (let depth = 0; depth < 3 && isRecord(list); depth++) {
    const key = LIST_KEYS.find((k) => (list as Record<string, unknown>)[k] !== undefined);
    if (key === undefined) break;
    list = (list as Record<string, unknown>)[key];
  }
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).map((r) => ({
    title: firstString(r, ["title", "name", "heading"]),
    url: firstString(r, ["url", "link", "href", "displayUrl"]),
    snippet: firstString(r, ["snippet", "content", "description", "text", "body", "summary"]).slice(
      0,
      SNIPPET_MAX_CHARS,
    ),
  }));
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** One query, with retries; a run cancellation propagates, every other failure is returned as text. */
export async function searchOnce(
  query: string,
  s: SearchSettings,
  deps: SearchDeps,
  signal?: AbortSignal,
): Promise<SearchHit[] | string> {
  let last = "";
  for (let attempt = 0; attempt <= SEARCH_RETRIES; attempt++) {
    if (attempt > 0) await deps.sleep(1000 * 2 ** (attempt - 1));
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
    const timeout = AbortSignal.timeout(Math.max(1, Math.round(s.timeoutSec * 1000)));
    try {
      const res = await deps.fetch(s.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(s.auth ? { authorization: s.auth } : {}) },
        body: JSON.stringify({ query, max_num_results: s.maxResults, provider: s.provider }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (res.ok) return normaliseSearchResults(await res.json().catch(() => null)).slice(0, s.maxResults);
      last = `HTTP ${res.status}`;
      if (!retryable(res.status)) return `search failed: ${last}`;
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      last = timeout.aborted ? `no response within ${s.timeoutSec}s` : err instanceof Error ? err.message : String(err);
    }
  }
  return `search failed after ${SEARCH_RETRIES + 1} attempts: ${last}`;
}

/** The results of one round's queries as one block per query. */
export function formatSearchResults(results: ReadonlyArray<{ query: string; hits: SearchHit[] | string }>): string {
  return results
    .map(({ query, hits }) => {
      const body =
        typeof hits === "string"
          ? `error: ${hits}`
          : hits.length === 0
            ? "no results"
            : hits
                .map((h, i) => `${i + 1}. ${h.title || "(untitled)"}${h.url ? ` — ${h.url}` : ""}\n   ${h.snippet}`)
                .join("\n");
      return `<search_results query=${JSON.stringify(query)}>\n${body}\n</search_results>`;
    })
    .join("\n\n");
}

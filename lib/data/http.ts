/**
 * Downloads for `data pull`: HTTPS GETs through an injectable `fetch`, with a mirror that replaces the
 * scheme + host (+ path prefix) of every URL, a Bearer token for Hugging Face, progress on a callback,
 * retries with backoff on 5xx / 429 / connection errors, and one-line errors naming the URL.
 */
import { AppError } from "../errors";

/** The part of the WHATWG `fetch` this module uses (so tests can pass a fake). */
export type FetchLike = (url: string, init?: { headers?: Record<string, string>; signal?: AbortSignal }) => Promise<Response>;

/** Options of `createDownloader`. */
export interface DownloaderOptions {
  fetch?: FetchLike;
  /** Replaces `scheme://host` of every URL (the mirror may carry a path prefix). */
  mirror?: string;
  /** Sent as `Authorization: Bearer …` to Hugging Face hosts (and to the mirror, which stands in for them). */
  hfToken?: string;
  /** Called with bytes received so far and the total when the server sent a length. */
  onProgress?: (p: { url: string; received: number; total: number | null; done: boolean }) => void;
  /** Attempts per URL (default 4). */
  attempts?: number;
  /** Waits between attempts (default real timers; tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
  /** Aborts the download in flight (Ctrl-C); an aborted download is never retried. */
  signal?: AbortSignal;
}

/** The error of a download stopped through `signal`. */
export function interruptedError(): AppError {
  return new AppError("UNAVAILABLE", "interrupted");
}

/** Fetches URLs as bytes, text or JSON. */
export interface Downloader {
  bytes(url: string): Promise<Uint8Array>;
  text(url: string): Promise<string>;
  json(url: string): Promise<unknown>;
  /** The URL actually requested for `url` (after the mirror). */
  resolve(url: string): string;
}

/** `https://huggingface.co/datasets/x` with mirror `http://127.0.0.1:9/m` → `http://127.0.0.1:9/m/datasets/x`. */
export function applyMirror(url: string, mirror: string | undefined): string {
  if (!mirror || mirror.trim() === "") return url;
  const u = new URL(url);
  const base = mirror.trim().replace(/\/+$/, "");
  return `${base}${u.pathname}${u.search}`;
}

/** Checks the mirror once so a typo is a clear error, not a confusing fetch failure. */
export function checkMirror(mirror: string | undefined, field = "--mirror"): string | undefined {
  if (mirror === undefined || mirror.trim() === "") return undefined;
  let u: URL;
  try {
    u = new URL(mirror.trim());
  } catch {
    throw new AppError("INVALID_REQUEST", `${field}: not a URL: '${mirror}'`, { field });
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new AppError("INVALID_REQUEST", `${field}: must be an http(s) URL, got '${mirror}'`, { field });
  }
  return mirror.trim();
}

const HF_HOSTS = new Set(["huggingface.co", "hf.co"]);

function isRetryable(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

function statusError(status: number, url: string, original: string, hasToken: boolean): AppError {
  if (status === 404) return new AppError("NOT_FOUND", `not found (HTTP 404): ${url}`);
  if ((status === 401 || status === 403) && HF_HOSTS.has(new URL(original).hostname)) {
    const hint = hasToken
      ? "HF_TOKEN was sent but refused: accept the dataset's terms on Hugging Face with that account, or check the token"
      : "this dataset is gated: accept its terms on Hugging Face and set HF_TOKEN to an access token";
    return new AppError("INVALID_REQUEST", `access denied (HTTP ${status}) for ${url}: ${hint}`);
  }
  return new AppError("UNAVAILABLE", `HTTP ${status} for ${url}`);
}

async function readBody(res: Response, url: string, onProgress: DownloaderOptions["onProgress"]): Promise<Uint8Array> {
  const lengthHeader = res.headers.get("content-length");
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress?.({ url, received, total, done: false });
  }
  onProgress?.({ url, received, total, done: true });
  if (total !== null && received !== total) throw new Error(`connection closed after ${received} of ${total} bytes`);
  const out = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A downloader with retries: 4 attempts, backoff 0.5 s · 2^k on 5xx/429/408 and connection errors. */
export function createDownloader(opts: DownloaderOptions = {}): Downloader {
  const doFetch: FetchLike = opts.fetch ?? ((url, init) => fetch(url, init));
  const attempts = Math.max(1, opts.attempts ?? 4);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const resolve = (url: string) => applyMirror(url, opts.mirror);

  async function bytes(original: string): Promise<Uint8Array> {
    const url = resolve(original);
    const headers: Record<string, string> = {};
    const toHf = HF_HOSTS.has(new URL(original).hostname);
    if (opts.hfToken && toHf) headers.authorization = `Bearer ${opts.hfToken}`;
    let last = "";
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(500 * 2 ** (attempt - 1));
      if (opts.signal?.aborted) throw interruptedError();
      let res: Response;
      try {
        res = await doFetch(url, { headers, ...(opts.signal ? { signal: opts.signal } : {}) });
      } catch (err) {
        if (opts.signal?.aborted) throw interruptedError();
        last = `cannot connect (${describeCause(err)})`;
        continue;
      }
      if (res.ok) {
        try {
          return await readBody(res, url, opts.onProgress);
        } catch (err) {
          if (opts.signal?.aborted) throw interruptedError();
          last = `download interrupted (${describeCause(err)})`;
          continue;
        }
      }
      await res.body?.cancel().catch(() => undefined);
      if (!isRetryable(res.status)) throw statusError(res.status, url, original, Boolean(opts.hfToken));
      last = `HTTP ${res.status}`;
    }
    throw new AppError("UNAVAILABLE", `${last} for ${url} (gave up after ${attempts} attempts)`);
  }

  async function text(url: string): Promise<string> {
    return new TextDecoder("utf-8").decode(await bytes(url)).replace(/^\uFEFF/, "");
  }

  async function json(url: string): Promise<unknown> {
    const body = await text(url);
    try {
      return JSON.parse(body);
    } catch (err) {
      throw new AppError("INVALID_REQUEST", `not valid JSON: ${resolve(url)} (${describeCause(err)})`);
    }
  }

  return { bytes, text, json, resolve };
}

function describeCause(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message) return cause.message;
    return err.message;
  }
  return String(err);
}

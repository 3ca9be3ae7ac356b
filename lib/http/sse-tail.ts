/**
 * The SSE tail over RunEvent rows (STYLE §3.8): send everything after the cursor, then wait for a wake-up
 * (a Redis notice after each commit) or at most `pollMs`, with keep-alive comments, and end after
 * `maxMs` so the browser reconnects with Last-Event-ID. Time and waiting are injected for tests.
 */
import { streamFrameData } from "../contracts/stored-events-stream";

export interface TailRow {
  seq: number;
  type: string;
  payload: string;
  createdAt: Date;
}

export interface TailDeps {
  read(afterSeq: number): Promise<TailRow[]>;
  /** True once the run can produce no more events. */
  finished(): Promise<boolean>;
  /** Resolves after `ms`, or earlier when woken. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  now(): number;
}

export interface TailOptions {
  cursor: number;
  signal: AbortSignal;
  pollMs?: number;
  keepAliveMs?: number;
  maxMs?: number;
}

/**
 * One row as an SSE frame. The payload goes out as the stored JSON text, unread: the browser parses it with
 * the stored schema of its type, so a row that does not parse reaches the page as a readable problem line
 * instead of breaking the stream here.
 */
function frame(row: TailRow): string {
  return `id: ${row.seq}\ndata: ${streamFrameData(row)}\n\n`;
}

export async function* tailEvents(deps: TailDeps, opts: TailOptions): AsyncGenerator<string> {
  const pollMs = opts.pollMs ?? 1000;
  const keepAliveMs = opts.keepAliveMs ?? 15_000;
  const end = deps.now() + (opts.maxMs ?? 60_000);
  let cursor = opts.cursor;
  let lastSent = deps.now();
  yield `retry: 1000\n: connected\n\n`;
  while (!opts.signal.aborted) {
    const rows = await deps.read(cursor);
    for (const row of rows) {
      yield frame(row);
      cursor = row.seq;
      lastSent = deps.now();
    }
    if (rows.length > 0) continue;
    if (await deps.finished()) {
      yield `event: end\ndata: {}\n\n`;
      return;
    }
    if (deps.now() >= end) return;
    if (deps.now() - lastSent >= keepAliveMs) {
      yield `: keep-alive\n\n`;
      lastSent = deps.now();
    }
    await deps.wait(pollMs, opts.signal);
  }
}

/** The cursor from Last-Event-ID (reconnects) or ?cursor=; 0 when absent; rejects garbage. */
export function parseCursor(req: Request): number {
  const raw = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("cursor") ?? "0";
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

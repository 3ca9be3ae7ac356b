/**
 * The load that broke SQLite, reproduced without a browser: worker processes (`node --import tsx
 * worker/index.ts`) train sample runs while this process plays the web server — it creates the runs
 * through the POST route and runs "browser clients" that hold the SSE tail open and poll the run and
 * list routes the way the run page does (every GET also marks stale runs, a write). Shared by
 * `npm run bench:sqlite` and tests/integration/sqlite-load.int.test.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as runRoute from "../../app/api/runs/[runId]/route";
import * as eventsRoute from "../../app/api/runs/[runId]/events/route";
import * as runsRoute from "../../app/api/runs/route";
import { getDb } from "../../lib/db/client";
import { FINISHED } from "../../lib/db/runs";

const BASE = "http://127.0.0.1:7860";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const params = (runId: string) => ({ params: Promise.resolve({ runId }) });

export interface WorkerProcess {
  id: string;
  child: ChildProcess;
  /** Everything it printed (stdout and stderr), line by line. */
  lines: string[];
  exited: Promise<number | null>;
}

/** Starts one worker process with its own id on the given database and Redis. */
export function spawnWorker(
  id: string,
  env: { DATABASE_URL: string; REDIS_URL: string; WORKER_CONCURRENCY?: number; extra?: NodeJS.ProcessEnv },
): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      ...env.extra,
      DATABASE_URL: env.DATABASE_URL,
      REDIS_URL: env.REDIS_URL,
      WORKER_ID: id,
      WORKER_CONCURRENCY: String(env.WORKER_CONCURRENCY ?? 2),
    },
  });
  const lines: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) {
    let buf = "";
    s.setEncoding("utf8");
    s.on("data", (d: string) => {
      buf += d;
      const parts = buf.split("\n");
      buf = parts.pop()!;
      lines.push(...parts);
    });
  }
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { id, child, lines, exited };
}

/** Resolves once the worker printed its ready line (rejects if it exits first or takes too long). */
export async function workerReady(w: WorkerProcess, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!w.lines.some((l) => l.includes(" ready ("))) {
    if (w.child.exitCode !== null)
      throw new Error(`worker ${w.id} exited (${w.child.exitCode}):\n${w.lines.join("\n")}`);
    if (Date.now() > end) throw new Error(`worker ${w.id} not ready after ${ms} ms:\n${w.lines.join("\n")}`);
    await sleep(100);
  }
}

/** SIGTERM, then the time until the process exited (ms), or null when it outlived `ms` (then SIGKILL). */
export async function stopWorker(w: WorkerProcess, ms = 15_000): Promise<number | null> {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return 0;
  const t0 = Date.now();
  w.child.kill("SIGTERM");
  const done = await Promise.race([w.exited.then(() => true), sleep(ms).then(() => false)]);
  if (!done) {
    w.child.kill("SIGKILL");
    await w.exited;
    return null;
  }
  return Date.now() - t0;
}

export interface Submitted {
  ids: string[];
  /** Milliseconds per POST /api/runs. */
  createMs: number[];
  /** Runs saved with a 202 because the queue did not answer within its timeout (the worker's reconcile pass
   * starts them); they are in `ids` too and must still succeed. */
  deferred: string[];
  /** Responses that were neither 201 nor 202, with their body. */
  errors: string[];
}

/** Creates `n` runs through the POST route, one after another; `onCreated` hears of each as it is made. */
export async function submitRuns(
  n: number,
  body: Record<string, unknown>,
  onCreated: (id: string) => void = () => {},
): Promise<Submitted> {
  const out: Submitted = { ids: [], createMs: [], deferred: [], errors: [] };
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await runsRoute.POST(
      new Request(`${BASE}/api/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, name: `load ${i}` }),
      }),
    );
    out.createMs.push(performance.now() - t0);
    if (res.status === 201 || res.status === 202) {
      out.ids.push(((await res.json()) as { id: string }).id);
      if (res.status === 202) out.deferred.push(out.ids.at(-1)!);
      onCreated(out.ids.at(-1)!);
    } else out.errors.push(`${res.status} ${await res.text()}`);
  }
  return out;
}

export interface ReaderStats {
  /** SSE frames received, over all clients. */
  frames: number;
  /** GET responses (run, list, events) by status class. */
  ok: number;
  errors: string[];
  /** Milliseconds per polling GET (each one also writes: it marks stale runs interrupted). */
  pollMs: number[];
}

async function readStream(res: Response, until: AbortSignal, stats: ReaderStats): Promise<void> {
  const reader = res.body!.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  until.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      stats.frames += (new TextDecoder().decode(value).match(/^id: /gm) ?? []).length;
    }
  } catch (err) {
    if (!until.aborted)
      stats.errors.push(`SSE stream: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
  } finally {
    until.removeEventListener("abort", stop);
  }
}

async function timedGet(stats: ReaderStats, what: string, call: () => Promise<Response>): Promise<void> {
  const t0 = performance.now();
  const res = await call().catch((e: unknown) => new Response(String(e), { status: 599 }));
  stats.pollMs.push(performance.now() - t0);
  if (res.status < 400) stats.ok++;
  else stats.errors.push(`${what}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  await res.body?.cancel().catch(() => {});
}

/** One browser on a run page: the SSE tail plus the run poll (5 s) and the runs list poll (3 s). */
async function browse(runId: string, stats: ReaderStats, signal: AbortSignal, maxMs: number): Promise<void> {
  const left = new AbortController(); // the stream ended: the run finished, the browser moves on
  const page = AbortSignal.any([signal, AbortSignal.timeout(maxMs), left.signal]);
  const polls = (async () => {
    for (let t = 0; !page.aborted; t++) {
      if (t % 5 === 0)
        await timedGet(stats, "GET /api/runs/[id]", () =>
          runRoute.GET(new Request(`${BASE}/api/runs/${runId}`), params(runId)),
        );
      if (t % 3 === 0) await timedGet(stats, "GET /api/runs", () => runsRoute.GET(new Request(`${BASE}/api/runs`)));
      await sleep(1000);
    }
  })();
  const res = await eventsRoute.GET(new Request(`${BASE}/api/runs/${runId}/events`, { signal: page }), params(runId));
  if (res.status !== 200) stats.errors.push(`GET events: ${res.status} ${(await res.text()).slice(0, 300)}`);
  else {
    stats.ok++;
    await readStream(res, page, stats);
  }
  left.abort();
  await polls;
}

/** `n` clients, each watching a running run of `ids` (client k the k-th most recent; any when none runs) until `signal` fires. */
export function startReaders(
  n: number,
  ids: () => string[],
  signal: AbortSignal,
): { stats: ReaderStats; done: Promise<void> } {
  const stats: ReaderStats = { frames: 0, ok: 0, errors: [], pollMs: [] };
  const client = async (k: number) => {
    for (let visit = 0; !signal.aborted; visit++) {
      const pool = ids();
      if (pool.length === 0) {
        await sleep(200);
        continue;
      }
      const running = await getDb().run.findMany({
        where: { id: { in: pool }, status: "running" },
        select: { id: true },
        orderBy: { startedAt: "desc" },
        take: 20,
      });
      const candidates = running.length > 0 ? running.map((r) => r.id) : pool;
      await browse(candidates[(k + visit) % candidates.length]!, stats, signal, 20_000);
    }
  };
  return { stats, done: Promise.all(Array.from({ length: n }, (_, k) => client(k))).then(() => {}) };
}

export interface RunsOutcome {
  byStatus: Record<string, number>;
  /** Error messages of failed runs (distinct, with counts). */
  failures: Record<string, number>;
  /** Runs still running or cancelling whose owner sent no heartbeat for `staleMs`. */
  orphaned: string[];
  /** startedAt → finishedAt of finished runs (ms). */
  durationsMs: number[];
  unfinished: string[];
}

/** Waits until every run is finished (or `timeoutMs` passes), then describes how they ended. */
export async function waitForRuns(ids: string[], opts: { timeoutMs: number; staleMs: number }): Promise<RunsOutcome> {
  const end = Date.now() + opts.timeoutMs;
  for (;;) {
    const open = await getDb().run.count({ where: { id: { in: ids }, status: { notIn: [...FINISHED] } } });
    if (open === 0 || Date.now() > end) break;
    await sleep(500);
  }
  const rows = await getDb().run.findMany({
    where: { id: { in: ids } },
    select: { id: true, status: true, errorMessage: true, startedAt: true, finishedAt: true, heartbeatAt: true },
  });
  const out: RunsOutcome = { byStatus: {}, failures: {}, orphaned: [], durationsMs: [], unfinished: [] };
  for (const r of rows) {
    out.byStatus[r.status] = (out.byStatus[r.status] ?? 0) + 1;
    if (r.status === "failed") {
      // Prisma's messages start with the call site and end with the cause: keep both ends.
      const lines = (r.errorMessage ?? "(no message)").split("\n").filter((l) => l.trim() !== "");
      const msg = (lines.length > 1 ? `${lines[0]} … ${lines.at(-1)}` : lines[0]!).slice(0, 200);
      out.failures[msg] = (out.failures[msg] ?? 0) + 1;
    }
    if (!FINISHED.includes(r.status as (typeof FINISHED)[number])) out.unfinished.push(r.id);
    const beat = r.heartbeatAt?.getTime() ?? 0;
    if ((r.status === "running" || r.status === "cancelling") && Date.now() - beat > opts.staleMs)
      out.orphaned.push(r.id);
    if (r.startedAt && r.finishedAt) out.durationsMs.push(r.finishedAt.getTime() - r.startedAt.getTime());
  }
  return out;
}

/** The q-quantile (0..1) of `xs` by nearest rank; NaN for an empty list. */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** The worker's writer-path summary line ("sqlite writer: …") if it printed one on shutdown. */
export function writerSummary(w: WorkerProcess): string | null {
  return w.lines.find((l) => l.includes("sqlite writer:"))?.replace(/^.*sqlite writer: /, "") ?? null;
}

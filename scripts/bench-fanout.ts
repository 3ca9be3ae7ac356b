/**
 * `npm run bench:fanout`: one SearchQA sample run with `worker.fan_out: true` on an exec-bound simulated
 * target (every model call takes --latency-ms, 500 by default, and each worker process runs --slots items
 * of the run at once, 2 by default), with 1, 2 and 4 worker processes on a private Redis and a private
 * SQLite file. Prints, per N: the run's wall time, the rollout throughput (items stored by the chunk jobs
 * divided by the time the rollout batches were running: per batch, from the first item's start to the last
 * item's store), its ratio to N x (one worker) — the target is >= 0.8 — and whether the best skill equals the
 * one-worker run's.
 * Options: --workers 1,2,4  --latency-ms 500  --slots 2  --epochs 1  --batch 30
 *   --pg postgresql://user@host:5432/db: use a throw-away database on that PostgreSQL server (the user may
 *   CREATE DATABASE) instead of a SQLite file, as several machines would.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";

const { values } = parseArgs({
  options: {
    workers: { type: "string", default: "1,2,4" },
    "latency-ms": { type: "string", default: "500" },
    slots: { type: "string", default: "2" },
    epochs: { type: "string", default: "1" },
    batch: { type: "string", default: "30" },
    pg: { type: "string" },
  },
});
const COUNTS = values.workers.split(",").map(Number);
const LATENCY = Number(values["latency-ms"]);
const root = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-fanout-"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function startRedis(port: number): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const proc = spawn("redis-server", args, { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    if (spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" }).stdout?.includes("PONG"))
      return proc;
    await sleep(50);
  }
  throw new Error(`redis-server on ${port} did not start`);
}

function startWorker(id: string, env: Record<string, string>): { proc: ChildProcess; ready: Promise<void> } {
  const proc = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    cwd: root,
    env: { ...process.env, ...env, WORKER_ID: id, WORKER_CONCURRENCY: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(" ready (")) resolve();
    });
    proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    proc.once("exit", (code) => reject(new Error(`worker ${id} exited (${code}):\n${out}`)));
  });
  return { proc, ready };
}

/** A throw-away database on the given server, and a way to drop it. */
async function createPgDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `skillopt_bench_fanout_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

const stopped = (p: ChildProcess) =>
  new Promise<void>((resolve) =>
    p.exitCode !== null || p.signalCode !== null ? resolve() : p.once("exit", () => resolve()),
  );

async function main() {
  const redisPort = await freePort();
  const redis = await startRedis(redisPort);
  const scratch = values.pg ? await createPgDatabase(values.pg) : null;
  const dbUrl = scratch?.url ?? `file:${join(dir, "bench.db")}`;
  const migrated = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: dbUrl },
    encoding: "utf8",
  });
  if (migrated.status !== 0) throw new Error(`migrate deploy failed:\n${migrated.stdout}\n${migrated.stderr}`);
  const env = { DATABASE_URL: dbUrl, REDIS_URL: `redis://127.0.0.1:${redisPort}` };
  Object.assign(process.env, env);
  // Imported after the environment points at the private Redis and database.
  const { createRunFromRequest } = await import("../lib/runs/create");
  const { findRun } = await import("../lib/db/runs");
  const { getDb, closeDb } = await import("../lib/db/client");
  const { closeQueue } = await import("../lib/queue/producer");
  const db = getDb();
  const results: { n: number; wallS: number; items: number; perS: number; best: string }[] = [];
  try {
    for (const n of COUNTS) {
      const workers = Array.from({ length: n }, (_, i) => startWorker(`bench-${n}-${i}`, env));
      await Promise.all(workers.map((w) => w.ready));
      const overrides = {
        "train.num_epochs": Number(values.epochs),
        "train.batch_size": Number(values.batch),
        "worker.fan_out": true,
        "worker.exec_slots": Number(values.slots),
        "model.sim_latency_ms": LATENCY,
      };
      const t0 = performance.now();
      const run = await createRunFromRequest(
        { preset: "searchqa/sample.yaml", overrides, name: `bench:fanout ${n}` },
        root,
      );
      for (;;) {
        const r = await findRun(run.id);
        if (r?.status === "succeeded") break;
        if (r && ["failed", "cancelled", "paused"].includes(r.status))
          throw new Error(`run with ${n} workers ended ${r.status}: ${r.errorMessage}`);
        await sleep(200);
      }
      const wallS = (performance.now() - t0) / 1000;
      for (const w of workers) w.proc.kill("SIGTERM");
      await Promise.all(workers.map((w) => stopped(w.proc)));
      const rows = await db.fanOutResult.findMany({
        where: { runId: run.id },
        select: { key: true, value: true, createdAt: true },
      });
      const spans = new Map<string, { start: number; end: number }>();
      for (const r of rows) {
        const t = JSON.parse(r.value) as { latencyMs?: number };
        const end = r.createdAt.getTime();
        const start = end - (t.latencyMs ?? LATENCY);
        const s = spans.get(r.key) ?? { start, end };
        spans.set(r.key, { start: Math.min(s.start, start), end: Math.max(s.end, end) });
      }
      const busyS = [...spans.values()].reduce((a, s) => a + (s.end - s.start), 0) / 1000;
      const best =
        (await db.checkpoint.findUnique({ where: { runId_key: { runId: run.id, key: "best_skill.md" } } }))?.value ??
        "";
      results.push({ n, wallS, items: rows.length, perS: rows.length / busyS, best });
    }
  } finally {
    await closeQueue();
    await closeDb();
    redis.kill("SIGKILL");
    await stopped(redis);
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  const one = results.find((r) => r.n === 1) ?? results[0]!;
  console.log(
    `bench:fanout — ${scratch ? "PostgreSQL" : "SQLite"}, searchqa sample, sim target ${LATENCY} ms per call, ${values.slots} exec slots per worker, ` +
      `${values.epochs} epoch(s), batch ${values.batch}`,
  );
  // Wall-clock figures depend on what else the machine runs: its load is printed with them.
  console.log(
    `machine: load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} (1/5/15 min)`,
  );
  console.log("workers  wall s  rollout items  items/s  ratio to N x one worker  same best skill");
  for (const r of results) {
    const ratio = r.perS / (r.n * (one.perS / one.n));
    console.log(
      `${String(r.n).padStart(7)}  ${r.wallS.toFixed(1).padStart(6)}  ${String(r.items).padStart(13)}  ` +
        `${r.perS.toFixed(2).padStart(7)}  ${ratio.toFixed(2).padStart(23)}  ${r.best === one.best ? "yes" : "NO"}`,
    );
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exit(1);
});

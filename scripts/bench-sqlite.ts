/**
 * `npm run bench:sqlite [-- --runs 200 --workers 3 --readers 5]`: SQLite under a person's heaviest load.
 * A fresh SQLite file and a private redis-server; worker processes train simulated sample runs while this
 * process acts as the web server (creates the runs through the API routes, and "browser clients" hold the
 * SSE tail and poll the pages' routes). Prints failed runs (must be 0), runs left running without an owner
 * (must be 0), run duration and write latency percentiles. Exits 1 when a run failed or was left behind.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { closeDb } from "../lib/db/client";
import { closeQueue } from "../lib/queue/producer";
import { ensureRedis, freePort } from "./start/redis";
import {
  quantile,
  spawnWorker,
  startReaders,
  stopWorker,
  submitRuns,
  waitForRuns,
  workerReady,
  writerSummary,
} from "./bench/sqlite-load";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "200" },
    workers: { type: "string", default: "3" },
    readers: { type: "string", default: "5" },
    concurrency: { type: "string", default: "2" },
    epochs: { type: "string", default: "1" },
    "timeout-min": { type: "string", default: "60" },
  },
});
const n = (k: keyof typeof values) => Number(values[k]);
const ms = (x: number) => (Number.isNaN(x) ? "n/a" : `${Math.round(x)} ms`);
const say = (m: string) => process.stdout.write(`[bench:sqlite] ${m}\n`);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-sqlite-"));
  const dbUrl = `file:${join(dir, "bench.db")}`;
  // A private redis-server, as `npm start` starts one when none answers (nothing answers on a free port).
  const redis = await ensureRedis(`redis://127.0.0.1:${await freePort()}`, { explicit: false, say });
  Object.assign(process.env, { DATABASE_URL: dbUrl, REDIS_URL: redis.url, SKILLOPT_STALE_AFTER_MS: "45000" });
  const mig = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
    env: process.env,
    encoding: "utf8",
  });
  if (mig.status !== 0) throw new Error(`migrate deploy failed:\n${mig.stdout}\n${mig.stderr}`);
  say(
    `${n("runs")} sample runs (${n("epochs")} epoch each), ${n("workers")} workers × concurrency ${n("concurrency")}, ${n("readers")} browser clients; db ${dbUrl.slice(5)}`,
  );

  const workers = Array.from({ length: n("workers") }, (_, i) =>
    spawnWorker(`bench-w${i}`, { DATABASE_URL: dbUrl, REDIS_URL: redis.url, WORKER_CONCURRENCY: n("concurrency") }),
  );
  await Promise.all(workers.map((w) => workerReady(w)));
  const stopReaders = new AbortController();
  const ids: string[] = [];
  const readers = startReaders(n("readers"), () => ids, stopReaders.signal);
  const t0 = Date.now();
  const body = { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": n("epochs") } };
  const sub = await submitRuns(n("runs"), body, (id) => ids.push(id));
  say(
    `submitted ${sub.ids.length} runs in ${((Date.now() - t0) / 1000).toFixed(1)} s (${sub.errors.length} refused, ${sub.deferred.length} saved with a 202 because Redis was slow to answer)`,
  );
  const outcome = await waitForRuns(sub.ids, { timeoutMs: n("timeout-min") * 60_000, staleMs: 45_000 });
  const wall = (Date.now() - t0) / 1000;
  stopReaders.abort();
  await readers.done;
  const stopMs = await Promise.all(workers.map((w) => stopWorker(w)));

  say(`finished in ${wall.toFixed(0)} s: ${JSON.stringify(outcome.byStatus)}`);
  say(
    `failed runs: ${outcome.byStatus.failed ?? 0}${Object.keys(outcome.failures).length ? `  ${JSON.stringify(outcome.failures)}` : ""}`,
  );
  say(`runs not finished: ${outcome.unfinished.length}; left running without an owner: ${outcome.orphaned.length}`);
  say(`refused creates: ${sub.errors.length}${sub.errors.length ? ` (first: ${sub.errors[0]!.slice(0, 200)})` : ""}`);
  say(
    `run duration (started → finished): p50 ${ms(quantile(outcome.durationsMs, 0.5))}, p95 ${ms(quantile(outcome.durationsMs, 0.95))}`,
  );
  say(
    `API writes — POST /api/runs: p50 ${ms(quantile(sub.createMs, 0.5))}, p95 ${ms(quantile(sub.createMs, 0.95))}; polling GETs (mark stale + read): p50 ${ms(quantile(readers.stats.pollMs, 0.5))}, p95 ${ms(quantile(readers.stats.pollMs, 0.95))}`,
  );
  say(
    `browser clients: ${readers.stats.frames} SSE frames, ${readers.stats.ok} ok responses, ${readers.stats.errors.length} errors${readers.stats.errors.length ? ` (first: ${readers.stats.errors[0]})` : ""}`,
  );
  for (const [i, w] of workers.entries())
    say(
      `worker ${w.id}: writer ${writerSummary(w) ?? "(no summary)"}; stopped ${stopMs[i] === null ? "only by SIGKILL" : `in ${stopMs[i]} ms`}`,
    );

  await closeQueue();
  await closeDb();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
  const bad = (outcome.byStatus.failed ?? 0) + outcome.unfinished.length + sub.errors.length;
  process.exit(bad > 0 ? 1 : 0);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:sqlite failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});

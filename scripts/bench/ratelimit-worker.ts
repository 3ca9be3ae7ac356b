/**
 * One worker-like process of `npm run bench:ratelimit`: it keeps its rate-limit counters in the shared
 * Redis (as the worker does), prints `ready`, waits for `go` on stdin, then runs BENCH_RUNS concurrent
 * SearchQA-shaped trainings through the openai-compatible backend against the mock server for
 * BENCH_SECONDS, cancels them, and prints one JSON line: its rate gates' counters and the calls answered.
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { rateGateReport, useSharedRateLimitStore } from "../../lib/backends/policy/rate-limit";
import { loadRunConfig } from "../../lib/config";
import { MemoryCheckpointStore, RunCancelledError, runTraining } from "../../lib/engine";
import { prepareRun } from "../../lib/runs/prepare";
import { benchSplits } from "./ratelimit-splits";

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name}: required by scripts/bench/ratelimit-worker.ts`);
  return v;
}

const redis = new Redis(need("REDIS_URL"), { maxRetriesPerRequest: 1 });
useSharedRateLimitStore(redis);
const runs = Number(need("BENCH_RUNS"));
const seconds = Number(need("BENCH_SECONDS"));
const worker = Number(need("BENCH_WORKER"));
const splits = benchSplits(Number(need("BENCH_ITEMS")));

async function oneRun(i: number, signal: AbortSignal): Promise<number> {
  const { config } = loadRunConfig("configs/searchqa/default.yaml", [
    "model.backend=openai-compatible",
    `model.compatible_base_url=${need("BENCH_MOCK_URL")}/v1`,
    "model.optimizer=sim-optimizer",
    "model.target=sim-target",
    `model.rate_limit_rpm=${need("BENCH_RPM")}`,
    "model.max_concurrency=32",
    "model.max_retries=20",
    "train.train_size=0",
    `train.seed=${42 + 10 * worker + i}`,
    "env.split_mode=sample",
    "env.workers=16",
    "gradient.analyst_workers=16",
  ]);
  const run = prepareRun({
    config,
    rootDir: process.cwd(),
    trust: "local",
    env: { OPENAI_COMPATIBLE_API_KEY: "bench-key" },
    skillText: readFileSync("lib/envs/searchqa/initial.md", "utf8"),
  });
  try {
    await runTraining({
      config,
      splits,
      initialSkill: run.initialSkill,
      env: run.env,
      optimizer: run.optimizer,
      target: run.target,
      store: new MemoryCheckpointStore(),
      events: { emit: () => {} },
      clock: { now: () => performance.now() },
      signal,
    });
  } catch (err) {
    if (!(err instanceof RunCancelledError) && !signal.aborted) throw err;
  }
  let calls = 0;
  for (const b of Object.values(run.policy.stats())) for (const c of Object.values(b?.byStage ?? {})) calls += c.calls;
  return calls;
}

async function main() {
  const lines = createInterface({ input: process.stdin });
  process.stdout.write("ready\n");
  for await (const line of lines) if (line.trim() === "go") break;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), seconds * 1000);
  const calls = await Promise.all(Array.from({ length: runs }, (_, i) => oneRun(i, stop.signal)));
  clearTimeout(timer);
  process.stdout.write(
    `${JSON.stringify({ worker, calls: calls.reduce((a, b) => a + b, 0), gates: rateGateReport() })}\n`,
  );
  lines.close();
  redis.disconnect();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * `npm run bench:ratelimit`: one shared rate limit across processes. The mock LLM server enforces
 * --rpm requests per minute (600; 429 with Retry-After and x-ratelimit-* headers beyond it). --workers
 * worker-like processes (4) each run --runs concurrent SearchQA-shaped trainings (3) through the
 * openai-compatible backend with one API key, their limiter counters in one private Redis, configured with
 * `model.rate_limit_rpm` = --configured (1000: an operator's guess above the real limit, which the limiter
 * learns from the first 429's headers). After --seconds (90) the runs are cancelled. Prints the 429s the
 * runs saw (and those of requests sent after their process had learned the limit), the 429s from --warmup
 * (30 s: the learning) to the end (target 0), and the requests answered per minute over that same span as
 * a share of the limit (target ≥ 90 %).
 * Options: --rpm N, --configured N, --workers N, --runs N, --seconds N, --warmup N, --items N (400),
 * --latency-ms N (100).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { buildSimKnowledge } from "../lib/contracts/sim";
import { searchQaSimRules } from "../lib/envs";
import { startMockLlmServer } from "../lib/mock-llm";
import { benchSplits } from "./bench/ratelimit-splits";

const { values } = parseArgs({
  options: {
    rpm: { type: "string", default: "600" },
    configured: { type: "string", default: "1000" },
    workers: { type: "string", default: "4" },
    runs: { type: "string", default: "3" },
    seconds: { type: "string", default: "90" },
    warmup: { type: "string", default: "30" },
    items: { type: "string", default: "400" },
    "latency-ms": { type: "string", default: "100" },
  },
});
const opt = Object.fromEntries(
  Object.entries(values).map(([k, v]) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${k}: expected a positive whole number, got '${v}'`);
    return [k, n];
  }),
) as Record<keyof typeof values, number>;
if (opt.warmup >= opt.seconds - 5) throw new Error("--warmup: must end at least 5 s before --seconds");

interface Report {
  worker: number;
  calls: number;
  gates: Array<{
    key: string;
    counts: { waited: number; limited: number; limitedAfterLearning: number };
    ceiling: number;
  }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function startRedis(dir: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const proc = spawn("redis-server", args, { stdio: "ignore" });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on("error", () => {}); // not up yet: the loop tries again
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return { url, proc };
    } catch {
      probe.disconnect();
      await sleep(100);
    }
  }
  proc.kill("SIGKILL");
  throw new Error(`redis-server did not start on port ${port}`);
}

function startWorker(i: number, env: Record<string, string>) {
  const proc = spawn(process.execPath, ["--import", "tsx", "scripts/bench/ratelimit-worker.ts"], {
    env: { ...process.env, ...env, BENCH_WORKER: String(i) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const out = createInterface({ input: proc.stdout! });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  out.on("line", (l) => {
    lines.push(l);
    waiters.splice(0).forEach((w) => w());
  });
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  const nextLine = async (): Promise<string> => {
    while (lines.length === 0) {
      const more = new Promise<void>((r) => waiters.push(r));
      if ((await Promise.race([more.then(() => "line"), exited.then(() => "exit")])) === "exit" && lines.length === 0)
        throw new Error(`bench worker ${i} exited before answering`);
    }
    return lines.shift()!;
  };
  return { proc, nextLine, exited };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-ratelimit-"));
  const redis = await startRedis(dir);
  const splits = benchSplits(opt.items);
  const server = await startMockLlmServer({
    knowledge: buildSimKnowledge(searchQaSimRules(), [...splits.train, ...splits.val, ...splits.test]),
    latency: { fixedMs: opt["latency-ms"] },
    rateLimit: { rpm: opt.rpm },
    requireKey: "bench-key",
  });
  const workers: ReturnType<typeof startWorker>[] = [];
  try {
    const env = {
      REDIS_URL: redis.url,
      BENCH_MOCK_URL: server.url,
      BENCH_RPM: String(opt.configured),
      BENCH_RUNS: String(opt.runs),
      BENCH_SECONDS: String(opt.seconds),
      BENCH_ITEMS: String(opt.items),
    };
    for (let i = 0; i < opt.workers; i++) workers.push(startWorker(i, env));
    for (const w of workers) if ((await w.nextLine()) !== "ready") throw new Error("a bench worker did not start");
    console.error(`bench:ratelimit: ${opt.workers} workers × ${opt.runs} runs for ${opt.seconds} s …`);
    for (const w of workers) w.proc.stdin!.write("go\n");
    const t0 = performance.now();
    await sleep(opt.warmup * 1000);
    const before = server.stats();
    const tWarm = performance.now();
    await sleep((opt.seconds - opt.warmup - 1) * 1000);
    const after = server.stats();
    const steadyMin = (performance.now() - tWarm) / 60_000;
    const reports = (await Promise.all(workers.map((w) => w.nextLine()))).map((l) => JSON.parse(l) as Report);
    await Promise.all(workers.map((w) => w.exited));
    const ok = (s: typeof before) => s.byStatus["200"] ?? 0;
    const gates = reports.flatMap((r) => r.gates);
    const sum = (f: (g: Report["gates"][number]) => number) => gates.reduce((a, g) => a + f(g), 0);
    const perMin = (ok(after) - ok(before)) / steadyMin;
    const line = (k: string, v: string) => console.log(`  ${k.padEnd(52)} ${v}`);
    console.log(
      `\nbench:ratelimit — mock limit ${opt.rpm} requests/min, ${opt.workers} processes × ${opt.runs} runs, one key, ` +
        `configured rate_limit_rpm ${opt.configured}, ${opt["latency-ms"]} ms per call, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    line("requests answered / refused (429) by the mock", `${ok(after)} / ${after.byStatus["429"] ?? 0}`);
    const refused = (x: typeof before) => x.byStatus["429"] ?? 0;
    line("429s seen by the runs", String(sum((g) => g.counts.limited)));
    line("  of requests sent after their process learned the limit", String(sum((g) => g.counts.limitedAfterLearning)));
    line(`429s after the first ${opt.warmup} s, once learned (target 0)`, String(refused(after) - refused(before)));
    line(
      "limit learned by",
      `${gates.filter((g) => g.ceiling < 1).length} of ${gates.length} processes (cap ${gates.map((g) => g.ceiling.toFixed(2)).join(", ")})`,
    );
    line(
      `throughput after ${opt.warmup} s (target ≥ 90 % of the limit)`,
      `${perMin.toFixed(0)} requests/min = ${((100 * perMin) / opt.rpm).toFixed(1)} %`,
    );
    line("model calls counted by the runs", String(reports.reduce((a, r) => a + r.calls, 0)));
  } finally {
    for (const w of workers) if (w.proc.exitCode === null) w.proc.kill("SIGKILL");
    await server.close();
    redis.proc.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

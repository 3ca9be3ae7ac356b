/**
 * `npm run bench`: a SearchQA-shaped run (400 train / 200 selection / 200 test items) through the real
 * `openai` backend (OpenAI SDK, our retry and concurrency layer) against the local mock LLM server.
 *   1. 0 ms per call: the engine + SDK + HTTP overhead;
 *   2. 200 ms per call, concurrency 16: wall time vs the critical-path lower bound (target ratio ≤ 1.05);
 *   3. the same with 30 % injected faults (429 with Retry-After, 500, malformed JSON): it must complete,
 *      count the errors, and end with the same best skill as the fault-free run.
 *   4. selection items scored per gate decision with and without evaluation.early_decision, per sample preset.
 * Options: --epochs N (2), --items N (400), --only early (just 4).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadRunConfig } from "../lib/config";
import { runTraining, skillHash, type Splits } from "../lib/engine";
import { searchQaSample, searchQaSimRules } from "../lib/envs";
import type { MockFaults } from "../lib/mock-llm";
import { FileCheckpointStore } from "../lib/runs/file-store";
import { prepareRun } from "../lib/runs/prepare";
import { criticalPath, scaled, timedClient, type Call } from "./bench/common";
import { earlyDecisionFigures } from "./bench/early-decision";

const { values } = parseArgs({
  options: {
    epochs: { type: "string", default: "2" },
    items: { type: "string", default: "400" },
    only: { type: "string" },
  },
});
const EPOCHS = Number(values.epochs);
const N = Number(values.items);
const CONCURRENCY = 16;

const sample = searchQaSample();
const pool = [...sample.train, ...sample.val, ...sample.test];
const splits: Splits = {
  train: scaled(N, "tr", pool),
  val: scaled(N / 2, "va", pool),
  test: scaled(N / 2, "te", pool),
};

interface Outcome {
  wallMs: number;
  boundMs: number;
  calls: number;
  phases: number;
  bestHash: string;
  best: number;
  byStage: Record<string, number>;
  errors: Record<string, number>;
  retries: number;
}

/** The mock server as its own process (as in real use: the model is not in the engine's process). */
async function startServer(
  dir: string,
  latencyMs: number,
  faults: MockFaults,
): Promise<{ url: string; close(): Promise<void> }> {
  const file = join(dir, "knowledge.json");
  writeFileSync(
    file,
    JSON.stringify({ rules: searchQaSimRules(), items: [...splits.train, ...splits.val, ...splits.test] }),
  );
  const flags = ["--port", "0", "--knowledge", file, "--require-key", "bench-key", "--latency-ms", String(latencyMs)];
  if (faults.rate429)
    flags.push("--fault-429", String(faults.rate429), "--retry-after", String(faults.retryAfterSeconds ?? 1));
  if (faults.rate500) flags.push("--fault-500", String(faults.rate500));
  if (faults.malformedJsonRate) flags.push("--fault-malformed", String(faults.malformedJsonRate));
  if (faults.seed !== undefined) flags.push("--fault-seed", String(faults.seed));
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/mock-llm-server.ts", ...flags], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`mock server exited (${code})`)));
  });
  return { url, close: () => new Promise((r) => (child.once("exit", () => r()), child.kill("SIGTERM"))) };
}

async function scenario(latencyMs: number, faults: MockFaults = {}): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-"));
  const server = await startServer(dir, latencyMs, faults);
  try {
    const { config } = loadRunConfig("configs/searchqa/default.yaml", [
      "model.backend=openai",
      `model.openai_base_url=${server.url}/v1`,
      `model.max_concurrency=${CONCURRENCY}`,
      "model.max_retries=8",
      `train.num_epochs=${EPOCHS}`,
      "train.train_size=0",
      "env.split_mode=sample", // the clients come from the config; the splits are the scaled ones above
      `env.workers=${CONCURRENCY}`,
      `gradient.analyst_workers=${CONCURRENCY}`,
    ]);
    const run = prepareRun({
      config,
      rootDir: process.cwd(),
      trust: "local",
      env: { OPENAI_API_KEY: "bench-key" },
      skillText: readFileSync("lib/envs/searchqa/initial.md", "utf8"),
    });
    const calls: Call[] = [];
    const t0 = performance.now();
    const summary = await runTraining({
      config,
      splits,
      initialSkill: run.initialSkill,
      env: run.env,
      optimizer: timedClient(run.optimizer, calls),
      target: timedClient(run.target, calls),
      store: new FileCheckpointStore(join(dir, "run")),
      events: {
        emit: (e) =>
          void (e.type === "stepCommitted" && process.stderr.write(`\r  step ${e.step} ${e.action.padEnd(16)}`)),
      },
      clock: { now: () => performance.now() },
    });
    const wallMs = performance.now() - t0;
    process.stderr.write("\n");
    const { bound, phases } = criticalPath(calls, CONCURRENCY, latencyMs);
    const byStage: Record<string, number> = {};
    const errors: Record<string, number> = {};
    let retries = 0;
    for (const b of Object.values(run.policy.stats())) {
      if (!b) continue;
      for (const [stage, c] of Object.entries(b.byStage)) byStage[stage] = (byStage[stage] ?? 0) + c.calls;
      for (const [k, n] of Object.entries(b.total.errors)) errors[k] = (errors[k] ?? 0) + n;
      retries += b.total.retries;
    }
    const best = readFileSync(join(dir, "run", "best_skill.md"), "utf8");
    return {
      wallMs,
      boundMs: bound,
      calls: calls.length,
      phases,
      bestHash: skillHash(best),
      best: summary.best_selection_hard as number,
      byStage,
      errors,
      retries,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const line = (k: string, v: string) => console.log(`  ${k.padEnd(40)} ${v}`);

async function main() {
  if (values.only === "early") return earlyDecisionFigures(line);
  console.error(`bench: ${N} train items, ${EPOCHS} epochs, openai backend → mock server, concurrency ${CONCURRENCY}`);
  const fast = await scenario(0);
  const slow = await scenario(200);
  const faulty = await scenario(200, {
    rate429: 0.1,
    retryAfterSeconds: 1,
    rate500: 0.1,
    malformedJsonRate: 0.1,
    seed: 7,
  });
  console.log("\nbench (openai backend through the SDK against the mock LLM server)");
  line("0 ms per call: wall time", `${(fast.wallMs / 1000).toFixed(1)} s for ${fast.calls} calls`);
  line(
    "200 ms per call: wall / critical-path bound",
    `${(slow.wallMs / 1000).toFixed(1)} s / ${(slow.boundMs / 1000).toFixed(1)} s`,
  );
  line("ratio (target ≤ 1.05)", (slow.wallMs / slow.boundMs).toFixed(3));
  line(
    "calls per phase",
    Object.entries(slow.byStage)
      .map(([s, n]) => `${s} ${n}`)
      .join(", "),
  );
  line("30 % faults: wall time", `${(faulty.wallMs / 1000).toFixed(1)} s`);
  line(
    "30 % faults: errors absorbed by retries",
    `${faulty.retries} retries (${
      Object.entries(faulty.errors)
        .map(([k, n]) => `${n} ${k} failed`)
        .join(", ") || "no call failed"
    })`,
  );
  line(
    "30 % faults: same best skill as fault-free",
    faulty.bestHash === slow.bestHash ? `yes (${slow.bestHash})` : `NO (${faulty.bestHash} vs ${slow.bestHash})`,
  );
  line("best selection (synthetic)", `${slow.best}`);
  line("peak RSS", `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  await earlyDecisionFigures(line);
  if (faulty.bestHash !== slow.bestHash) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

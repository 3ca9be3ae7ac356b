/**
 * `npm run bench:engine`: a SearchQA-shaped run (400 train / 200 selection / 200 test items, 4 epochs,
 * batch 40) on the simulated model with a fixed latency per call at concurrency 16. Prints the wall time
 * against the critical-path lower bound — Σ over sequential phases of ⌈calls / concurrency⌉ × latency,
 * where a phase is a maximal group of overlapping calls — their ratio (target ≤ 1.05), the engine's own
 * time per step, and peak RSS (target ≤ 300 MB). Options: --latency MS (200), --epochs N (4), --items N (400).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createSimClient } from "../lib/backends/sim";
import { loadRunConfig } from "../lib/config";
import { buildSimKnowledge } from "../lib/contracts/sim";
import { runTraining, type ModelClient, type Splits } from "../lib/engine";
import { createEnvironment, searchQaSample, searchQaSimRules } from "../lib/envs";
import { FileCheckpointStore } from "../lib/runs/file-store";
import { criticalPath, scaled, timedClient, type Call } from "./bench/common";

const { values } = parseArgs({
  options: {
    latency: { type: "string", default: "200" },
    epochs: { type: "string", default: "4" },
    items: { type: "string", default: "400" },
  },
});
const LATENCY = Number(values.latency);
const EPOCHS = Number(values.epochs);
const TRAIN = Number(values.items);
const CONCURRENCY = 16;
const calls: Call[] = [];
const timed = (c: ModelClient) => timedClient(c, calls);

async function main() {
  const sample = searchQaSample();
  const pool = [...sample.train, ...sample.val, ...sample.test];
  const splits: Splits = {
    train: scaled(TRAIN, "tr", pool),
    val: scaled(TRAIN / 2, "va", pool),
    test: scaled(TRAIN / 2, "te", pool),
  };
  const { config } = loadRunConfig("configs/searchqa/default.yaml", [
    "model.backend=sim",
    `train.num_epochs=${EPOCHS}`,
    "train.train_size=0",
    `env.workers=${CONCURRENCY}`,
    `gradient.analyst_workers=${CONCURRENCY}`,
  ]);
  const knowledge = buildSimKnowledge(searchQaSimRules(), [...splits.train, ...splits.val, ...splits.test]);
  const sim = (role: "optimizer" | "target") =>
    timed(
      createSimClient({
        role,
        knowledge,
        seed: config.train.seed,
        slipRate: 0.04,
        unhelpfulRate: 0.25,
        malformedRate: 0,
        latencyMs: LATENCY,
      }),
    );
  const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-"));
  let steps = 0;
  const t0 = performance.now();
  const summary = await runTraining({
    config,
    splits,
    initialSkill: (await import("node:fs")).readFileSync("lib/envs/searchqa/initial.md", "utf8"),
    env: createEnvironment(config, splits),
    optimizer: sim("optimizer"),
    target: sim("target"),
    store: new FileCheckpointStore(dir),
    events: {
      emit: (e) => {
        if (e.type === "stepCommitted") {
          steps += 1;
          process.stderr.write(`\rstep ${e.step} ${e.action.padEnd(16)} best ${e.bestScore.toFixed(3)}   `);
        }
      },
    },
    clock: { now: () => performance.now() },
  });
  const wall = performance.now() - t0;
  rmSync(dir, { recursive: true, force: true });
  const { bound, phases } = criticalPath(calls, CONCURRENCY, LATENCY);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  const line = (k: string, v: string) => console.log(`  ${k.padEnd(34)} ${v}`);
  console.log(
    `\nbench:engine — ${TRAIN} train items, ${EPOCHS} epochs, ${steps} steps, ${LATENCY} ms per call, concurrency ${CONCURRENCY}`,
  );
  line("model calls", `${calls.length} in ${phases} sequential phases`);
  line("wall time", `${(wall / 1000).toFixed(1)} s`);
  line("critical-path lower bound", `${(bound / 1000).toFixed(1)} s`);
  line("ratio wall / bound (target ≤ 1.05)", (wall / bound).toFixed(3));
  line("engine time per step (wall − bound)", `${((wall - bound) / Math.max(steps, 1)).toFixed(1)} ms`);
  line("peak RSS (target ≤ 300 MB)", `${rssMb.toFixed(0)} MB`);
  line(
    "best selection (synthetic)",
    `${String(summary.baseline_selection_hard)} → ${String(summary.best_selection_hard)}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * `npm run bench:engine`: a SearchQA-shaped run (400 train / 200 selection / 200 test items, 4 epochs,
 * batch 40) on the simulated model with a fixed latency per call at concurrency 16. Prints the wall time
 * against the critical-path lower bound — Σ over sequential phases of ⌈calls / concurrency⌉ × latency,
 * where a phase is a maximal group of overlapping calls — their ratio (target ≤ 1.05), the engine's own
 * time per step, the main thread's CPU and the whole process's (steadier than wall time on a loaded machine),
 * and peak RSS (target ≤ 300 MB). Options: --latency MS (200), --epochs N (4), --items N (400),
 * --selection N (items / 2; also the test split's size).
 * `--scale` (or BENCH_SCALE=1): the issue-14 scale run — 10,000 train items, 4 epochs, 200 selection and 200
 * test items, at the same 200 ms per call (about 14 minutes; explicit flags still win); RSS is also printed at
 * each epoch's end, so growth per step shows, and the peak target is 400 MB. `--scale --latency 20` is a
 * stress variant (a minute and a half): the engine's own time per step is then a tenth of the calls' time
 * instead of a hundredth, so its ratio shows what per-step overhead is left.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { loadRunConfig } from "../lib/config";
import { runTraining } from "../lib/engine";
import { createEnvironment } from "../lib/envs/registry";
import { FileCheckpointStore } from "../lib/runs/file-store";
import { criticalPath, searchQaSimClients, searchQaSplits, timedClient, type Call } from "./bench/common";

const { values } = parseArgs({
  options: {
    latency: { type: "string" },
    epochs: { type: "string" },
    items: { type: "string" },
    selection: { type: "string" },
    scale: { type: "boolean", default: process.env.BENCH_SCALE === "1" },
  },
});
const SCALE = values.scale === true;
const LATENCY = Number(values.latency ?? 200);
const EPOCHS = Number(values.epochs ?? 4);
const TRAIN = Number(values.items ?? (SCALE ? 10_000 : 400));
const SELECTION = Number(values.selection ?? (SCALE ? 200 : TRAIN / 2));
const RSS_TARGET_MB = SCALE ? 400 : 300;
for (const [flag, v] of Object.entries({ latency: LATENCY, epochs: EPOCHS, items: TRAIN, selection: SELECTION })) {
  if (!Number.isInteger(v) || v < (flag === "latency" ? 0 : 1))
    throw new Error(`--${flag}: expected a whole number, got ${v}`);
}
const CONCURRENCY = 16;
const calls: Call[] = [];
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function main() {
  const splits = searchQaSplits(TRAIN, SELECTION);
  const { config } = loadRunConfig("configs/searchqa/default.yaml", [
    "model.backend=sim",
    `train.num_epochs=${EPOCHS}`,
    "train.train_size=0",
    `env.workers=${CONCURRENCY}`,
    `gradient.analyst_workers=${CONCURRENCY}`,
  ]);
  const sim = searchQaSimClients({ splits, seed: config.train.seed, latencyMs: LATENCY });
  const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-"));
  let steps = 0;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const perEpoch: string[] = [];
  const main0 = mainThreadCpuS();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const summary = await runTraining({
    config,
    splits,
    initialSkill: readFileSync("lib/envs/searchqa/initial.md", "utf8"),
    env: createEnvironment(config, splits),
    optimizer: timedClient(sim.optimizer, calls),
    target: timedClient(sim.target, calls),
    store: new FileCheckpointStore(dir),
    events: {
      emit: (e) => {
        if (e.type === "stepCommitted") {
          steps += 1;
          process.stderr.write(`\rstep ${e.step} ${e.action.padEnd(16)} best ${e.bestScore.toFixed(3)}   `);
        }
        if (e.type === "epochCompleted") {
          gc(); // the live heap, not garbage waiting for a collection: growth per step shows here
          const m = process.memoryUsage();
          perEpoch.push(`epoch ${e.epoch}: RSS ${mb(m.rss)}, live heap ${mb(m.heapUsed)}`);
        }
      },
    },
    clock: { now: () => performance.now() },
  });
  const wall = performance.now() - t0;
  // Steadier than wall time on a loaded machine: the main thread's CPU (what delays the calls), all CPU used.
  const mainCpu = main0 === null ? null : mainThreadCpuS()! - main0;
  const cpu = process.cpuUsage(cpu0);
  const { bound, phases, idle, overrun } = criticalPath(calls, CONCURRENCY, LATENCY);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  const line = (k: string, v: string) => console.log(`  ${k.padEnd(34)} ${v}`);
  console.log(
    `\nbench:engine — ${TRAIN} train / ${SELECTION} selection / ${SELECTION} test items, ${EPOCHS} epochs, ${steps} steps, ${LATENCY} ms per call, concurrency ${CONCURRENCY}`,
  );
  line("model calls", `${calls.length} in ${phases} sequential phases`);
  // The bound counts each call at exactly the latency; the sim's timer fires late by the event loop's turn,
  // which no engine change removes: this much of "inside phases" is the calls' own.
  const meanCall = calls.reduce((a, c) => a + c.end - c.start, 0) / Math.max(calls.length, 1);
  line("mean call duration", `${meanCall.toFixed(2)} ms (the bound counts ${LATENCY} ms)`);
  line("wall time", `${(wall / 1000).toFixed(1)} s`);
  line("critical-path lower bound", `${(bound / 1000).toFixed(1)} s`);
  line("ratio wall / bound (target ≤ 1.05)", (wall / bound).toFixed(3));
  line("engine time per step (wall − bound)", `${((wall - bound) / Math.max(steps, 1)).toFixed(1)} ms`);
  line("  of which between phases", `${(idle / Math.max(steps, 1)).toFixed(1)} ms`);
  line("  of which inside phases", `${(overrun / Math.max(steps, 1)).toFixed(1)} ms`);
  if (mainCpu !== null)
    line(
      "main thread CPU",
      `${mainCpu.toFixed(1)} s (${((mainCpu * 1000) / Math.max(steps, 1)).toFixed(1)} ms per step)`,
    );
  line("process CPU user + system", `${(cpu.user / 1e6).toFixed(1)} s + ${(cpu.system / 1e6).toFixed(1)} s`);
  line(`peak RSS (target ≤ ${RSS_TARGET_MB} MB)`, `${rssMb.toFixed(0)} MB`);
  for (const e of perEpoch) line("at the end of", e);
  line(
    "best selection (synthetic)",
    `${String(summary.baseline_selection_hard)} → ${String(summary.best_selection_hard)}`,
  );
  // After the figures: removing a 1,000-step run's folder (about 150,000 files) takes minutes on a busy disk.
  rmSync(dir, { recursive: true, force: true });
}

/** The main thread's CPU seconds (user + system), from Linux's per-thread stat; null elsewhere. */
function mainThreadCpuS(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

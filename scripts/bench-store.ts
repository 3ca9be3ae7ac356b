/**
 * `npm run bench:store [-- --items 2000 --selection 200 --steps 5 --latency 0]`: how long the engine waits
 * on the database checkpoint store per step (issue 14). A SearchQA-shaped run (ITEMS train items, SELECTION
 * selection items, batch 40) on the simulated model (--latency MS per call, default 0), trained twice in
 * this process on a fresh SQLite file for STEPS steps, its events persisted as the worker persists them
 * (each commit point after the store's flush): once with the in-memory store, once with DbCheckpointStore
 * as the worker builds it (the run's owner; its usage hook writes a usage row before each batch lands).
 * Prints the median time per step of each (step started → step committed, steps 2 on) and their
 * difference, the engine's wait on the store, with the SQLite writes per step and the load average (the
 * figures are rough on a busy machine).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadRunConfig } from "../lib/config";
import { DbCheckpointStore, isCommitEvent } from "../lib/db/checkpoint-store";
import { createDb, writerStatsOf, type Db } from "../lib/db/client";
import { persistEngineEvent } from "../lib/db/engine-events";
import { addLlmUsage } from "../lib/db/llm-usage";
import { createRun } from "../lib/db/runs";
import { MemoryCheckpointStore, RunCancelledError, runTraining, skillHash, type CheckpointStore } from "../lib/engine";
import { createEnvironment } from "../lib/envs/registry";
import { searchQaSimClients, searchQaSplits } from "./bench/common";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "2000" },
    selection: { type: "string", default: "200" },
    steps: { type: "string", default: "5" },
    latency: { type: "string", default: "0" },
  },
});
const ITEMS = Number(values.items);
const SELECTION = Number(values.selection);
const STEPS = Number(values.steps);
const LATENCY = Number(values.latency);
/** The median, so one slow step (the first warms the process up) does not move the figure. */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

async function train(db: Db, kind: "memory" | "db"): Promise<{ msPerStep: number; writesPerStep: number }> {
  const splits = searchQaSplits(ITEMS, SELECTION);
  const { config, resolvedYaml } = loadRunConfig("configs/searchqa/default.yaml", [
    "model.backend=sim",
    "train.num_epochs=1",
    "train.train_size=0",
    "env.workers=16",
    "gradient.analyst_workers=16",
  ]);
  const initialSkill = readFileSync("lib/envs/searchqa/initial.md", "utf8");
  const id = crypto.randomUUID();
  await createRun(
    {
      id,
      name: `bench:store ${kind}`,
      config,
      sourceYaml: resolvedYaml,
      seedSkill: initialSkill,
      optimizerBackend: "sim",
      targetBackend: "sim",
      simulated: true,
      stepsTotal: STEPS,
    },
    { db },
  );
  const sim = searchQaSimClients({ splits, seed: config.train.seed, latencyMs: LATENCY });
  // As the worker's usage hook: one usage row written before each landing of checkpoint writes.
  const usageRow = () =>
    addLlmUsage(
      id,
      [
        {
          role: "target",
          stage: "rollout",
          backend: "sim",
          model: "sim",
          counters: {
            calls: 1,
            promptTokens: 1,
            completionTokens: 1,
            latencyMs: 0,
            errors: {},
            retries: 0,
            cacheHits: 0,
            costUsd: null,
            costSavedUsd: null,
          },
        },
      ],
      db,
    );
  const store: CheckpointStore =
    kind === "memory"
      ? new MemoryCheckpointStore()
      : new DbCheckpointStore(id, db, { beforeWrite: usageRow, ownsRun: true });
  const stop = new AbortController();
  const started = new Map<number, number>();
  const took: number[] = [];
  const writes0 = writerStatsOf(db)?.writes ?? 0;
  let writesAtFirstStep = 0;
  try {
    await runTraining({
      config,
      splits,
      initialSkill,
      env: createEnvironment(config, splits),
      optimizer: sim.optimizer,
      target: sim.target,
      store,
      events: {
        emit: async (e) => {
          if (isCommitEvent(e.type)) await store.flush?.();
          await persistEngineEvent(id, e, skillHash, db);
          if (e.type === "stepStarted") {
            started.set(e.step, performance.now());
            if (e.step === 1) writesAtFirstStep = writerStatsOf(db)?.writes ?? 0;
          }
          if (e.type === "stepCommitted") {
            took.push(performance.now() - started.get(e.step)!);
            process.stderr.write(`\r${kind}: step ${e.step} ${took.at(-1)!.toFixed(0)} ms   `);
            if (e.step >= STEPS) stop.abort();
          }
        },
      },
      clock: { now: () => Date.now() },
      signal: stop.signal,
    });
  } catch (err) {
    if (!(err instanceof RunCancelledError)) throw err;
  }
  process.stderr.write("\n");
  const writes = (writerStatsOf(db)?.writes ?? writes0) - writesAtFirstStep;
  return { msPerStep: median(took.slice(1)), writesPerStep: writes / took.length };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-store-"));
  const url = `file:${join(dir, "bench.db")}`;
  const mig = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (mig.status !== 0) throw new Error(`migrate deploy failed:\n${mig.stdout}\n${mig.stderr}`);
  const db = createDb(url);
  const loadBefore = load();
  const memory = await train(db, "memory");
  const stored = await train(db, "db");
  console.log(
    `\nbench:store — ${ITEMS} train / ${SELECTION} selection items, batch 40, ${STEPS} steps (median of steps 2–${STEPS}), sim ${LATENCY} ms per call, SQLite`,
  );
  const line = (k: string, v: string) => console.log(`  ${k.padEnd(40)} ${v}`);
  line("step time, in-memory store", `${memory.msPerStep.toFixed(0)} ms`);
  line("step time, DbCheckpointStore", `${stored.msPerStep.toFixed(0)} ms`);
  line("engine wait on the store per step", `${(stored.msPerStep - memory.msPerStep).toFixed(0)} ms`);
  line(
    "SQLite writes per step (events + store)",
    `${memory.writesPerStep.toFixed(0)} + ${(stored.writesPerStep - memory.writesPerStep).toFixed(0)}`,
  );
  line("load average (1 / 5 / 15 min)", `${loadBefore} at the start, ${load()} at the end`);
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * `npm run bench:latency`: the same SearchQA-shaped run (400 train / 200 selection / 200 test items by
 * default) through the `openai` backend against the mock LLM server with heavy-tailed latency (lognormal,
 * median 1 s, sigma 1.0, every stage), once without and once with `model.hedge: true`. Prints wall time,
 * calls, hedged calls (extra calls billed) and whether both runs chose the same best skill.
 * Options: --items N (400), --epochs N (1), --concurrency N (32), --median-ms N (1000), --sigma S (1.0),
 * --percentile P, --tiers "CALLS@P,…" ("" = none), --tail-percentile P and --tail-calls N (each unset: the
 * config's default, `model.hedge_*`), --seed N (42: the mock server's seed of its answers and latency draws;
 * a request's latency is drawn from the seed and its prompt, so both runs see the same latency per request).
 * Prints the load average beside the figures: on a busy machine they are directional.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadRunConfig } from "../lib/config";
import { runTraining, skillHash, type Splits } from "../lib/engine";
import { searchQaSample, searchQaSimRules } from "../lib/envs";
import { FileCheckpointStore } from "../lib/runs/file-store";
import { prepareRun } from "../lib/runs/prepare";
import { scaled } from "./bench/common";
import { startMockProcess } from "./bench/mock-process";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "400" },
    epochs: { type: "string", default: "1" },
    concurrency: { type: "string", default: "32" },
    "median-ms": { type: "string", default: "1000" },
    sigma: { type: "string", default: "1.0" },
    percentile: { type: "string" },
    "tail-percentile": { type: "string" },
    "tail-calls": { type: "string" },
    tiers: { type: "string" },
    seed: { type: "string", default: "42" },
  },
});
const N = Number(values.items);
const CONCURRENCY = Number(values.concurrency);
const sample = searchQaSample();
const pool = [...sample.train, ...sample.val, ...sample.test];
const splits: Splits = {
  train: scaled(N, "tr", pool),
  val: scaled(N / 2, "va", pool),
  test: scaled(N / 2, "te", pool),
};

interface Outcome {
  wallMs: number;
  calls: number;
  hedges: number;
  bestHash: string;
  actions: string[];
  /** The hedging configuration the run resolved (main percentile and tiers). */
  hedgeCfg: string;
}

async function scenario(hedge: boolean): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-bench-latency-"));
  const dist = `lognormal:${values["median-ms"]}:${values.sigma}`;
  const server = await startMockProcess(
    dir,
    searchQaSimRules(),
    [...splits.train, ...splits.val, ...splits.test],
    ["--latency", dist, "--seed", values.seed],
  );
  try {
    const { config } = loadRunConfig("configs/searchqa/default.yaml", [
      "model.backend=openai",
      `model.openai_base_url=${server.url}/v1`,
      `model.max_concurrency=${CONCURRENCY}`,
      `model.hedge=${hedge}`,
      // Unset options keep the config's defaults (the documented configuration).
      ...(values.percentile ? [`model.hedge_percentile=${values.percentile}`] : []),
      ...(values["tail-percentile"] ? [`model.hedge_tail_percentile=${values["tail-percentile"]}`] : []),
      ...(values["tail-calls"] ? [`model.hedge_tail_calls=${values["tail-calls"]}`] : []),
      ...(values.tiers !== undefined ? [`model.hedge_tiers=${values.tiers}`] : []),
      `train.num_epochs=${values.epochs}`,
      "train.train_size=0",
      "env.split_mode=sample",
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
    const m = run.policy.transport;
    const tiers = [
      ...m.hedge_tiers,
      ...(m.hedge_tail_calls > 0 ? [{ calls: m.hedge_tail_calls, percentile: m.hedge_tail_percentile }] : []),
    ];
    const hedgeCfg = [
      `p${m.hedge_percentile * 100}`,
      ...tiers.map((t) => `≤${t.calls} in flight p${t.percentile * 100}`),
    ].join(", ");
    const actions: string[] = [];
    const t0 = performance.now();
    await runTraining({
      config,
      splits,
      initialSkill: run.initialSkill,
      env: run.env,
      optimizer: run.optimizer,
      target: run.target,
      store: new FileCheckpointStore(join(dir, "run")),
      events: {
        emit: (e) => {
          if (e.type !== "stepCommitted") return;
          actions.push(`${e.step}:${e.action}`);
          process.stderr.write(`\r  ${hedge ? "hedged" : "plain "} step ${e.step} ${e.action.padEnd(16)}`);
        },
      },
      clock: { now: () => performance.now() },
    });
    const wallMs = performance.now() - t0;
    process.stderr.write(`\n  ${hedge ? "hedged" : "plain "} wall ${(wallMs / 1000).toFixed(1)} s\n`);
    let calls = 0;
    let hedges = 0;
    for (const b of Object.values(run.policy.stats())) {
      for (const [stage, c] of Object.entries(b?.byStage ?? {})) {
        if (stage.endsWith("_hedge")) hedges += c.calls;
        else calls += c.calls;
      }
    }
    const best = readFileSync(join(dir, "run", "best_skill.md"), "utf8");
    return { wallMs, calls, hedges, bestHash: skillHash(best), actions, hedgeCfg };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const line = (k: string, v: string) => console.log(`  ${k.padEnd(44)} ${v}`);

async function main() {
  console.error(
    `bench:latency (load average ${loadavg()[0]!.toFixed(2)}): ${N} train items, ${values.epochs} epoch(s), lognormal median ${values["median-ms"]} ms σ ${values.sigma}, concurrency ${CONCURRENCY}, mock seed ${values.seed}`,
  );
  const plain = await scenario(false);
  const hedged = await scenario(true);
  console.log(
    `\nbench:latency (openai backend → mock server, lognormal median ${values["median-ms"]} ms, σ ${values.sigma}, seed ${values.seed})`,
  );
  line("without hedging: wall time", `${(plain.wallMs / 1000).toFixed(1)} s, ${plain.calls} calls`);
  const hedgeCfg = plain.hedgeCfg;
  line(
    `with hedging (${hedgeCfg}): wall time`,
    `${(hedged.wallMs / 1000).toFixed(1)} s, ${hedged.calls} calls + ${hedged.hedges} hedges`,
  );
  line("wall ratio hedged / plain (target ≤ 0.70)", (hedged.wallMs / plain.wallMs).toFixed(3));
  line("extra calls (target ≤ 5 %)", `${((100 * hedged.hedges) / hedged.calls).toFixed(1)} %`);
  const same = plain.bestHash === hedged.bestHash && plain.actions.join() === hedged.actions.join();
  line(
    "load average (1/5/15 min) at the end",
    loadavg()
      .map((x) => x.toFixed(2))
      .join(" / "),
  );
  line("same gate decisions and best skill", same ? `yes (${plain.bestHash})` : "NO");
  if (!same) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

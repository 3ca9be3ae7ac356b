/**
 * `skillopt train`: load and validate everything first (bad input writes nothing), then run the engine
 * against a folder store with the original's output layout. Ctrl-C stops cleanly; `--resume DIR` picks
 * the run up where it stopped without re-paying any completed model call.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadRunConfig, parseRunConfigText, type LoadedConfig } from "../../lib/config";
import type { BestMeasuredBy } from "../../lib/contracts/best";
import type { RunConfig } from "../../lib/contracts/run-config";
import {
  planRun,
  RunCancelledError,
  runTraining,
  stopRunOf,
  type Environment,
  type RolloutPhase,
} from "../../lib/engine";
import { AppError } from "../../lib/errors";
import { FileCheckpointStore } from "../../lib/runs/file-store";
import { ensureRunPackages } from "../../lib/runs/system-packages";
import { prepareRun } from "../../lib/runs/prepare";
import { describeFingerprint, fingerprintSplits } from "../../lib/envs";
import { costOf, withUserPrices, type PriceTable } from "../../lib/backends/pricing";
import { resolveRoles } from "../../lib/backends/names";
import { errorLine } from "../../lib/contracts/error-line";
import { createProgress, type Progress } from "./progress";
import { openRecorder } from "./record";
import { formatSummary } from "./summary";

export interface TrainArgs {
  config?: string;
  overrides: string[];
  out?: string;
  resume?: string;
  /** Do not record the run in the dashboard's database. */
  noDb?: boolean;
}

const RUN_CONFIG = "run_config.yaml";

function loadConfig(args: TrainArgs, cwd: string): LoadedConfig {
  if (args.config) return loadRunConfig(args.config, args.overrides);
  if (!args.resume)
    throw new AppError("INVALID_REQUEST", "--config FILE is required (or --resume DIR of an earlier run)", {
      field: "--config",
    });
  const saved = join(resolve(cwd, args.resume), RUN_CONFIG);
  if (!existsSync(saved))
    throw new AppError("INVALID_REQUEST", `--resume: ${saved} not found; is this a SkillOpt output folder?`, {
      field: "--resume",
    });
  return parseRunConfigText(readFileSync(saved, "utf8"), {
    sourceName: saved,
    baseDir: resolve(cwd, args.resume),
    overrides: args.overrides,
  });
}

/**
 * What an interrupted run already spent, from its commit point, so the budget keeps counting on resume.
 * Calls made after the last committed step are not in it (they are replayed from memos at no cost).
 */
function spentSoFar(dir: string, config: RunConfig): { usd: number; calls: number } | undefined {
  const file = join(dir, "runtime_state.json");
  if (!existsSync(file)) return undefined;
  const tokens =
    (
      JSON.parse(readFileSync(file, "utf8")) as {
        token_summary?: Record<string, { calls: number; prompt_tokens: number; completion_tokens: number }>;
      }
    ).token_summary ?? {};
  const roles = resolveRoles(config.model);
  const usd = costOf(
    tokens,
    {
      optimizer: { backend: roles.optimizer, model: config.model.optimizer },
      target: { backend: roles.target, model: config.model.target },
    },
    withUserPrices(config.model.price_table as PriceTable | undefined),
  );
  return { usd: usd ?? 0, calls: Object.values(tokens).reduce((n, t) => n + t.calls, 0) };
}

function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}_${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

function outputDir(args: TrainArgs, config: RunConfig, cwd: string): string {
  if (args.resume) return resolve(cwd, args.resume);
  if (args.out) return resolve(cwd, args.out);
  if (config.env.out_root) return resolve(cwd, config.env.out_root);
  return resolve(
    cwd,
    "outputs",
    `skillopt_${config.env.name}_${config.model.optimizer.replaceAll("/", "-")}_${stamp(new Date())}`,
  );
}

/** Wraps the environment so the progress display sees each finished item. */
function withItemProgress(env: Environment, progress: Progress): Environment {
  return {
    ...env,
    name: env.name,
    taskTypes: () => env.taskTypes(),
    failureTaxonomy: () => env.failureTaxonomy(),
    prepareBatch: env.prepareBatch ? (items, seed) => env.prepareBatch!(items, seed) : undefined,
    async rollout(input) {
      const t = await env.rollout(input);
      progress.onItem(input.phase);
      return t;
    },
  };
}

export async function runTrainCommand(args: TrainArgs, cwd = process.cwd()): Promise<number> {
  const loaded = loadConfig(args, cwd);
  const config = loaded.config;
  await ensureRunPackages(config, { install: true, env: process.env, say: (m) => process.stderr.write(`${m}\n`) });
  // The machine's own user: any path it names is read. Nothing is written until every check has passed.
  const run = prepareRun({
    config,
    rootDir: cwd,
    env: process.env,
    trust: "local",
    policy: { spent: args.resume ? spentSoFar(resolve(cwd, args.resume), config) : undefined },
  });
  const plan = planRun(config, run.splits);
  const out = outputDir(args, config, cwd);
  if (!args.resume && existsSync(join(out, "runtime_state.json"))) {
    throw new AppError(
      "CONFLICT",
      `${out} already holds a run; resume it with --resume ${out} or choose another --out`,
      { field: "--out" },
    );
  }
  for (const w of [...loaded.warnings, ...run.warnings]) process.stderr.write(`warning: ${w}\n`);
  if (run.simulated) process.stderr.write("Simulated model — scores are synthetic.\n");
  process.stderr.write(`${describeFingerprint(fingerprintSplits(config, run.splits, cwd))}\n`);
  run.materialiseSplits();
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, RUN_CONFIG), loaded.resolvedYaml);
  const phaseTotals: Record<RolloutPhase, number> = {
    train: config.train.batch_size,
    selection: config.evaluation.sel_env_num || run.splits.val.length,
    test: config.evaluation.test_env_num || run.splits.test.length,
    longitudinal: config.optimizer.slow_update_samples,
  };
  const progress = createProgress({ phaseTotals });

  const ac = new AbortController();
  const onSigint = () => {
    process.stderr.write("\nstopping after the calls in flight… (press Ctrl-C again to force)\n");
    process.removeListener("SIGINT", onSigint);
    ac.abort();
  };
  process.on("SIGINT", onSigint);
  const onCancel = () => {
    process.stderr.write("\ncancelled from the dashboard; stopping after the calls in flight…\n");
    ac.abort();
  };
  const db = args.noDb
    ? null
    : await openRecorder({
        config,
        run,
        resolvedYaml: loaded.resolvedYaml,
        outDir: out,
        totalSteps: plan.totalSteps,
        resume: Boolean(args.resume),
        onCancel,
      });
  let bestMeasuredBy: BestMeasuredBy | undefined;
  try {
    const summary = await runTraining({
      config,
      splits: run.splits,
      initialSkill: run.initialSkill,
      env: withItemProgress(run.env, progress),
      optimizer: run.optimizer,
      target: run.target,
      store: new FileCheckpointStore(out),
      events: {
        emit: async (e) => {
          progress.onEvent(e);
          if (e.type === "finalSelectionChecked" && e.promoted) bestMeasuredBy = "final_check";
          await db?.recorder.emit(e);
        },
      },
      clock: { now: () => Date.now() },
      signal: ac.signal,
      logger: { info: () => {}, warn: (m) => process.stderr.write(`warning: ${m}\n`) },
    });
    progress.stop();
    await db?.recorder.finish("succeeded");
    process.stdout.write(
      formatSummary(summary, {
        outDir: out,
        simulated: run.simulated,
        backends: run.policy.stats(),
        bestMeasuredBy,
        metric: config.evaluation.gate_metric,
      }),
    );
    return 0;
  } catch (err) {
    progress.stop();
    if (err instanceof RunCancelledError) {
      if (db?.recorder.cancelRequested) await db.recorder.finish("cancelled", { stopReason: "cancelled by the user" });
      else
        await db?.recorder.finish("interrupted", {
          errorMessage: "stopped from the command line; resume it there with train --resume",
        });
      process.stderr.write(`interrupted; resume with: npm run skillopt -- train --resume ${out}\n`);
      return 130;
    }
    if (stopRunOf(err) === "pause") {
      const message = err instanceof Error ? err.message : String(err);
      await db?.recorder.finish("budget_exhausted", { errorMessage: errorLine(err) });
      process.stderr.write(
        `run paused: ${message}\nresume with a larger budget: npm run skillopt -- train --resume ${out} --cfg-options budget.max_usd=… budget.max_calls=…\n`,
      );
      return 3;
    }
    await db?.recorder.finish("failed", { errorMessage: errorLine(err) });
    throw err;
  } finally {
    process.removeListener("SIGINT", onSigint);
    await db?.close();
  }
}

/**
 * `skillopt eval`: score one skill file on a split (no optimizer calls), writing eval_summary.json.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { loadRunConfig } from "../../lib/config";
import { planRun, RunCancelledError, runEvalOnly, type EvalSplit } from "../../lib/engine";
import { AppError } from "../../lib/errors";
import { FileCheckpointStore } from "../../lib/runs/file-store";
import { describeFingerprint, fingerprintSplits } from "../../lib/envs";
import { ensureRunPackages } from "../../lib/runs/system-packages";
import { prepareRun, readSkillFile } from "../../lib/runs/prepare";
import { describeUnanswered } from "../../lib/contracts/coverage";
import { errorLine } from "../../lib/contracts/error-line";
import { openRecorder } from "./record";

export interface EvalArgs {
  config?: string;
  skill?: string;
  split: string;
  overrides: string[];
  out?: string;
  /** Do not record the evaluation in the dashboard's database. */
  noDb?: boolean;
}

const SPLITS: readonly EvalSplit[] = ["all", "train", "valid_seen", "valid_unseen"];

export async function runEvalCommand(args: EvalArgs, cwd = process.cwd()): Promise<number> {
  if (!args.config) throw new AppError("INVALID_REQUEST", "--config FILE is required", { field: "--config" });
  if (!args.skill) throw new AppError("INVALID_REQUEST", "--skill FILE is required", { field: "--skill" });
  if (!SPLITS.includes(args.split as EvalSplit)) {
    throw new AppError("INVALID_REQUEST", `--split must be one of ${SPLITS.join(", ")} (got '${args.split}')`, {
      field: "--split",
    });
  }
  const { config, resolvedYaml } = loadRunConfig(args.config, args.overrides);
  const skillPath = resolve(cwd, args.skill);
  const skill = readSkillFile(skillPath, "--skill");
  await ensureRunPackages(config, { install: true, env: process.env, say: (m) => process.stderr.write(`${m}\n`) });
  const run = prepareRun({ config, rootDir: cwd, skillText: skill, env: process.env, trust: "local" });
  planRun(config, run.splits); // the eval refuses the same inconsistent sizes, but before anything is written
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15);
  const out = resolve(
    cwd,
    args.out ?? `outputs/eval_${config.env.name}_${config.model.target.replaceAll("/", "-")}_${stamp}`,
  );
  for (const w of run.warnings) process.stderr.write(`warning: ${w}\n`);
  if (run.simulated) process.stderr.write("Simulated model — scores are synthetic.\n");
  process.stderr.write(`${describeFingerprint(fingerprintSplits(config, run.splits, cwd))}\n`);
  run.materialiseSplits();
  mkdirSync(out, { recursive: true });
  // Recorded like `train` (source cli), labelled as an evaluation; the dashboard's Cancel stops it.
  const ac = new AbortController();
  const db = args.noDb
    ? null
    : await openRecorder({
        config,
        run,
        resolvedYaml,
        outDir: out,
        totalSteps: 0,
        resume: false,
        label: `cli eval ${args.split}`,
        onCancel: () => {
          process.stderr.write("\ncancelled from the dashboard; stopping after the calls in flight…\n");
          ac.abort();
        },
      });
  let summary: Awaited<ReturnType<typeof runEvalOnly>>;
  try {
    summary = await runEvalOnly({
      config,
      splits: run.splits,
      env: run.env,
      optimizer: run.optimizer,
      target: run.target,
      store: new FileCheckpointStore(out),
      events: { emit: async (e) => db?.recorder.emit(e) },
      clock: { now: () => Date.now() },
      signal: ac.signal,
      skill,
      skillLabel: skillPath,
      split: args.split as EvalSplit,
    });
    await db?.recorder.finish("succeeded");
  } catch (err) {
    if (err instanceof RunCancelledError)
      await db?.recorder.finish("cancelled", { stopReason: "cancelled by the user" });
    else await db?.recorder.finish("failed", { errorMessage: errorLine(err) });
    throw err;
  } finally {
    await db?.close();
  }
  const unanswered = describeUnanswered({
    nErrors: summary.n_errors,
    nTimeouts: summary.n_timeouts,
    nTruncated: summary.n_truncated,
  });
  process.stdout.write(
    `eval ${summary.split}: ${summary.n_items} items, hard ${summary.hard.toFixed(3)}, soft ${summary.soft.toFixed(3)}` +
      `${unanswered ? ` over the answered items (${unanswered} not answered)` : ""}\n` +
      `summary: ${out}/eval_summary.json\n`,
  );
  return 0;
}

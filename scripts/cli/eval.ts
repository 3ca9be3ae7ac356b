/**
 * `skillopt eval`: score one skill file on a split (no optimizer calls), writing eval_summary.json.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { loadRunConfig } from "../../lib/config";
import { planRun, runEvalOnly, type EvalSplit } from "../../lib/engine";
import { AppError } from "../../lib/errors";
import { FileCheckpointStore } from "../../lib/runs/file-store";
import { describeFingerprint, fingerprintSplits } from "../../lib/envs";
import { ensureRunPackages } from "../../lib/runs/system-packages";
import { prepareRun, readSkillFile } from "../../lib/runs/prepare";
import { describeUnanswered } from "../../lib/contracts/coverage";

export interface EvalArgs {
  config?: string;
  skill?: string;
  split: string;
  overrides: string[];
  out?: string;
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
  const { config } = loadRunConfig(args.config, args.overrides);
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
  const summary = await runEvalOnly({
    config,
    splits: run.splits,
    env: run.env,
    optimizer: run.optimizer,
    target: run.target,
    store: new FileCheckpointStore(out),
    events: { emit: () => {} },
    clock: { now: () => Date.now() },
    skill,
    skillLabel: skillPath,
    split: args.split as EvalSplit,
  });
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

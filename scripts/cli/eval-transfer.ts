/**
 * `skillopt eval --target B:M [--target B:M …]`: the transfer matrix from the command line. The skill file
 * (`--skill`, the trained best) and the config's seed skill are each scored on the test split with every
 * target — the config with only the target backend and model replaced — and printed as the dashboard's
 * matrix (target × skill → score, delta, cost); `--csv FILE` writes the same CSV as its download.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadRunConfig } from "../../lib/config";
import type { RunConfig } from "../../lib/contracts/run-config";
import {
  buildTransferMatrix,
  type TransferCellView,
  type TransferSkill,
  type TransferTarget,
} from "../../lib/contracts/transfer";
import { MemoryCheckpointStore, runEvalOnly } from "../../lib/engine";
import { AppError } from "../../lib/errors";
import { prepareRun, readSkillFile } from "../../lib/runs/prepare";
import { ensureRunPackages } from "../../lib/runs/system-packages";
import { transferCsv } from "../../lib/runs/transfer-csv";
import { formatTransferTable } from "./transfer-table";

export interface TransferEvalArgs {
  config?: string;
  skill?: string;
  targets: string[];
  overrides: string[];
  csv?: string;
}

/** `BACKEND:MODEL` (the model may contain `/` and `:`; the backend may not). */
export function parseTarget(s: string): TransferTarget {
  const at = s.indexOf(":");
  const backend = at > 0 ? s.slice(0, at).trim() : "";
  const model = at > 0 ? s.slice(at + 1).trim() : "";
  if (!backend || !model)
    throw new AppError("INVALID_REQUEST", `--target must be BACKEND:MODEL, e.g. sim:sim-target (got '${s}')`, {
      field: "--target",
    });
  return { backend, model };
}

async function scoreCell(
  config: RunConfig,
  cwd: string,
  skill: { kind: TransferSkill; text: string },
  t: TransferTarget,
): Promise<TransferCellView> {
  const cfg = { ...config, model: { ...config.model, target: t.model, target_backend: t.backend } };
  const run = prepareRun({ config: cfg, rootDir: cwd, skillText: skill.text, env: process.env, trust: "local" });
  run.materialiseSplits();
  const s = await runEvalOnly({
    config: cfg,
    splits: run.splits,
    env: run.env,
    optimizer: run.optimizer,
    target: run.target,
    store: new MemoryCheckpointStore(),
    events: { emit: () => {} },
    clock: { now: () => Date.now() },
    skill: skill.text,
    skillLabel: skill.kind,
    split: "valid_unseen",
  });
  const usage = run.policy.stats().target?.total;
  return {
    skill: skill.kind,
    targetBackend: t.backend,
    targetModel: t.model,
    status: "succeeded",
    hard: s.hard,
    soft: s.soft,
    nItems: s.n_items,
    nUnanswered: s.n_errors + s.n_timeouts + s.n_truncated,
    calls: usage?.calls ?? 0,
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
    costUsd: usage ? usage.costUsd : null,
    errorMessage: null,
  };
}

export async function runTransferEvalCommand(args: TransferEvalArgs, cwd = process.cwd()): Promise<number> {
  if (!args.config) throw new AppError("INVALID_REQUEST", "--config FILE is required", { field: "--config" });
  if (!args.skill) throw new AppError("INVALID_REQUEST", "--skill FILE is required", { field: "--skill" });
  const targets = args.targets.map(parseTarget);
  const { config } = loadRunConfig(args.config, args.overrides);
  const best = readSkillFile(resolve(cwd, args.skill), "--skill");
  await ensureRunPackages(config, { install: true, env: process.env, say: (m) => process.stderr.write(`${m}\n`) });
  const seed = prepareRun({ config, rootDir: cwd, env: process.env, trust: "local" }).initialSkill;
  const cells: TransferCellView[] = [];
  for (const t of targets) {
    for (const skill of [
      { kind: "seed" as const, text: seed },
      { kind: "best" as const, text: best },
    ]) {
      process.stderr.write(`${skill.kind} skill on ${t.backend}:${t.model}…\n`);
      cells.push(await scoreCell(config, cwd, skill, t));
    }
  }
  const rows = buildTransferMatrix(cells);
  process.stdout.write(formatTransferTable(rows));
  if (args.csv) {
    writeFileSync(resolve(cwd, args.csv), transferCsv(rows));
    process.stdout.write(`csv: ${resolve(cwd, args.csv)}\n`);
  }
  return 0;
}

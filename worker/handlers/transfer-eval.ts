/**
 * One transfer matrix cell: the run's best skill (or its seed) scored on the run's test split with another
 * target — the run's own config with only the target backend and model replaced, no optimizer call.
 */
import { errorLine } from "../../lib/contracts/error-line";
import { findRun, runConfigOf } from "../../lib/db/runs";
import {
  claimTransferCell,
  failTransferCell,
  finishTransferCell,
  transferSkillText,
} from "../../lib/db/transfer-cells";
import { MemoryCheckpointStore, runEvalOnly } from "../../lib/engine";
import { prepareRun } from "../../lib/runs/prepare";
import type { TransferSkill } from "../../lib/contracts/transfer";
import type { Logger } from "../logger";

export interface TransferHandlerContext {
  rootDir: string;
  log: Logger;
}

export async function handleTransferCell(cellId: string, ctx: TransferHandlerContext): Promise<string> {
  const cell = await claimTransferCell(cellId);
  if (!cell) return "not-claimed";
  try {
    const run = await findRun(cell.runId);
    if (!run) throw new Error(`run ${cell.runId} is gone`);
    const base = runConfigOf(run);
    const config = {
      ...base,
      model: { ...base.model, target: cell.targetModel, target_backend: cell.targetBackend },
    };
    const skill = await transferSkillText(run.id, cell.skill as TransferSkill);
    // The run's paths are checked again as for any dashboard run; the target comes from the catalog.
    const prepared = prepareRun({ config, rootDir: ctx.rootDir, skillText: skill, env: process.env, trust: "request" });
    prepared.materialiseSplits();
    const summary = await runEvalOnly({
      config,
      splits: prepared.splits,
      env: prepared.env,
      optimizer: prepared.optimizer,
      target: prepared.target,
      store: new MemoryCheckpointStore(),
      events: { emit: () => {} },
      clock: { now: () => Date.now() },
      skill,
      skillLabel: cell.skill,
      split: "valid_unseen",
    });
    const usage = prepared.policy.stats().target?.total;
    await finishTransferCell(cellId, {
      hard: summary.hard,
      soft: summary.soft,
      nItems: summary.n_items,
      nUnanswered: summary.n_errors + summary.n_timeouts + summary.n_truncated,
      calls: usage?.calls ?? 0,
      promptTokens: usage?.promptTokens ?? 0,
      completionTokens: usage?.completionTokens ?? 0,
      costUsd: usage ? usage.costUsd : null,
    });
    ctx.log.info(
      `transfer cell ${cellId} (${cell.skill} on ${cell.targetBackend}/${cell.targetModel}): hard ${summary.hard.toFixed(3)}`,
    );
    return "succeeded";
  } catch (e) {
    ctx.log.warn(`transfer cell ${cellId} failed: ${errorLine(e)}`);
    await failTransferCell(cellId, errorLine(e));
    return "failed";
  }
}

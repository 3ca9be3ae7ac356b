/**
 * The service entry for reading and managing an existing run where the engine's pure helpers or a
 * benchmark are needed: evidence, blame, leakage, its dataset, the transfer table, a step's detail
 * (hashed with the engine's skill hash), liveness and deletion with its files. Routes reach them only
 * through here; .dependency-cruiser.cjs enforces it.
 */
import { getStepDetail } from "../db/run-views";
import { skillHash } from "../engine/scoring";

export { getRunDataset } from "../runs/dataset";
export { deleteRunWithFiles } from "../runs/delete";
export { staleAfterMs } from "../runs/liveness";
export { getRunBlame, getRunEvidence, getRunProposals, runBlameMarkdown } from "../runs/run-evidence";
export { getRunLeakage } from "../runs/run-leakage";
export { transferBudgetCheck } from "../runs/transfer-budget";
export { transferCsv } from "../runs/transfer-csv";

/** One step's detail: its row, the skill it started from and its candidate, with their results. */
export function getRunStepDetail(runId: string, step: number) {
  return getStepDetail(runId, step, skillHash);
}

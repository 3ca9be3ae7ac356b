/**
 * How much of a run's data the simulated model knows. The sim target answers an item correctly only from
 * the hidden annotations the built-in samples carry; any other item (your own upload, a pulled benchmark)
 * gets a wrong answer and scores 0 whatever the skill says, so the form warns before such a run starts.
 */
import type { SimCoverage } from "../contracts/api";
import { resolveRoles } from "../backends/names";
import type { CheckedRun } from "./check-run";

/** Items the sim target has no annotation for; null when the target is not the sim or it knows every item. */
export function simCoverage(run: Pick<CheckedRun, "config" | "splits" | "simKnowledge">): SimCoverage | null {
  if (resolveRoles(run.config.model).target !== "sim") return null;
  const items = [...run.splits.train, ...run.splits.val, ...run.splits.test];
  const known = run.simKnowledge?.byId;
  const unannotated = items.filter((it) => !known?.has(String(it.id))).length;
  return unannotated === 0 ? null : { unannotated, total: items.length };
}

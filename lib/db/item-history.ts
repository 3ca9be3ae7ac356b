/**
 * Reads the stored per-item results behind the item-history view: one query for the split's evaluation
 * rows (only the columns the view needs) and one for the steps' gate decisions and candidate hashes.
 */
import {
  ADOPTING_ACTIONS,
  buildItemHistory,
  type ItemHistoryResponse,
  type ItemSplit,
} from "../contracts/item-history";
import { getDb, type DbTx } from "./client";
import { getRun } from "./runs";

export async function getItemHistory(
  runId: string,
  split: ItemSplit,
  { db = getDb() }: { db?: DbTx } = {},
): Promise<ItemHistoryResponse> {
  await getRun(runId, { db }); // 404 for an unknown run
  const labels = split === "selection" ? ["baseline", "selection"] : ["rollout"];
  const [rows, steps] = await Promise.all([
    db.evalResult.findMany({
      where: { runId, label: { in: labels } },
      select: {
        step: true,
        label: true,
        itemId: true,
        hard: true,
        status: true,
        skillHash: true,
        prediction: true,
        reference: true,
      },
    }),
    db.step.findMany({ where: { runId }, select: { step: true, action: true, candidateHash: true } }),
  ]);
  return buildItemHistory(split, rows, steps);
}

/**
 * The current skill's last known per-item selection results before `step`, for a step whose current skill
 * has no rows of its own (its score was reused): those of the latest adopted candidate, else the baseline.
 */
export async function lastKnownCurrent(
  db: DbTx,
  runId: string,
  step: number,
): Promise<{ fromStep: number; rows: Array<{ itemId: string; hard: number }> } | null> {
  const adopted = await db.step.findMany({
    where: { runId, step: { lt: step }, action: { in: [...ADOPTING_ACTIONS] }, candidateHash: { not: null } },
    orderBy: { step: "desc" },
    select: { step: true, candidateHash: true },
    take: 1,
  });
  const last = adopted[0];
  if (last) {
    const own = await db.evalResult.findMany({
      where: { runId, step: last.step, label: "selection" },
      select: { itemId: true, hard: true },
    });
    const rows =
      own.length > 0
        ? own
        : await db.evalResult.findMany({
            where: { runId, skillHash: last.candidateHash!, split: "selection" },
            select: { itemId: true, hard: true },
          });
    if (rows.length > 0) return { fromStep: last.step, rows };
  }
  const base = await db.evalResult.findMany({
    where: { runId, step: 0, label: "baseline" },
    select: { itemId: true, hard: true },
  });
  return base.length > 0 ? { fromStep: 0, rows: base } : null;
}

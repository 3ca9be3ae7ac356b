/**
 * Reads the stored per-item results behind the item-history view: the split's result codes aggregated per
 * evaluation, each item's latest prediction and reference, and the steps' gate decisions and candidate hashes.
 */
import {
  ADOPTING_ACTIONS,
  buildItemHistoryFromColumns,
  type HistoryColumn,
  type ItemHistoryResponse,
  type ItemSplit,
  type ResultCode,
} from "../contracts/item-history";
import { Prisma } from "../../generated/prisma-sqlite/client";
import { getDb, providerOfDb, type DbTx } from "./client";
import { requireRun } from "./runs";

type CodeRow = { step: number | bigint; label: string; hash: string | null; cells: string | null };
type TextRow = { itemId: string; prediction: string | null; reference: string | null };

/** Separates `<code><itemId>` entries in an aggregated cell list (item ids never hold control characters). */
const SEP = "\u001e";

/** The evaluation labels a split's history reads (three slots; repeated when a split has fewer). */
export type Labels = readonly [string, string, string];

/**
 * Per-evaluation result codes, aggregated in SQL: 40,000 rows become one string per evaluation, which
 * keeps a 1,000-step run's history well under a second (materialising every row costs seconds). The
 * query reads a covering index (runId, label, step, status, hard, itemId, skillHash), not the rows.
 */
export function evaluationCodesQuery(runId: string, [l1, l2, l3]: Labels, sqlite: boolean): Prisma.Sql {
  if (sqlite)
    return Prisma.sql`
      SELECT "step", "label", MIN("skillHash") AS hash,
        group_concat(CASE WHEN "status" <> 'ok' THEN 'e' WHEN "hard" >= 1 THEN '1' ELSE '0' END || "itemId", ${SEP}) AS cells
      FROM "EvalResult" WHERE "runId" = ${runId} AND ("label" = ${l1} OR "label" = ${l2} OR "label" = ${l3})
      GROUP BY "step", "label"`;
  return Prisma.sql`
    SELECT "step", "label", MIN("skillHash") AS hash,
      string_agg(CASE WHEN "status" <> 'ok' THEN 'e' WHEN "hard" >= 1 THEN '1' ELSE '0' END || "itemId", ${SEP}::text) AS cells
    FROM "EvalResult" WHERE "runId" = ${runId} AND ("label" = ${l1} OR "label" = ${l2} OR "label" = ${l3})
    GROUP BY "step", "label"`;
}

const evaluationCodes = (db: DbTx, runId: string, labels: Labels): Promise<CodeRow[]> =>
  db.$queryRaw<CodeRow[]>(evaluationCodesQuery(runId, labels, providerOfDb(db) === "sqlite"));

/** Steps per query when reading the latest rows' texts (bound parameters stay far below every limit). */
const TEXT_STEPS = 500;
/** At one step, the slow update's gate ran after the step's candidate was scored. */
const LABEL_ORDER: Record<string, number> = { baseline: 0, selection: 1, rollout: 1, slow_update: 2 };

/** Each item's latest evaluation: the highest step, at a tie the later label. */
function latestEvaluations(columns: readonly HistoryColumn[]): Map<string, { step: number; label: string }> {
  const out = new Map<string, HistoryColumn>(); // the column itself: no object per item and evaluation
  for (const c of columns) {
    const rank = LABEL_ORDER[c.label] ?? 0;
    for (const id of c.codes.keys()) {
      const l = out.get(id);
      if (!l || c.step > l.step || (c.step === l.step && rank > (LABEL_ORDER[l.label] ?? 0))) out.set(id, c);
    }
  }
  return out;
}

/**
 * Each item's reference and the prediction of its latest stored evaluation: only the rows of the steps
 * where some item was last evaluated are read (a 1,000-step run's selection split: one step's 40 rows,
 * not all 40,000 with their texts).
 */
async function latestTexts(
  db: DbTx,
  runId: string,
  [l1, l2, l3]: Labels,
  latest: ReadonlyMap<string, { step: number; label: string }>,
): Promise<Map<string, TextRow>> {
  const steps = [...new Set([...latest.values()].map((l) => l.step))].sort((a, b) => a - b);
  const out = new Map<string, TextRow>();
  for (let i = 0; i < steps.length; i += TEXT_STEPS) {
    const rows = await db.$queryRaw<Array<TextRow & { step: number | bigint; label: string }>>`
      SELECT "itemId", "step", "label", "prediction", "reference" FROM "EvalResult"
      WHERE "runId" = ${runId} AND "step" IN (${Prisma.join(steps.slice(i, i + TEXT_STEPS))})
        AND ("label" = ${l1} OR "label" = ${l2} OR "label" = ${l3})`;
    for (const r of rows) {
      const l = latest.get(r.itemId);
      if (l && l.step === Number(r.step) && l.label === r.label) out.set(r.itemId, r);
    }
  }
  return out;
}

export async function getItemHistory(
  runId: string,
  split: ItemSplit,
  { db = getDb() }: { db?: DbTx } = {},
): Promise<ItemHistoryResponse> {
  await requireRun(runId, { db }); // 404 for an unknown run
  const labels: Labels =
    split === "selection" ? ["baseline", "selection", "slow_update"] : ["rollout", "rollout", "rollout"];
  const [codes, steps, slow] = await Promise.all([
    evaluationCodes(db, runId, labels),
    db.step.findMany({ where: { runId }, select: { step: true, action: true, candidateHash: true } }),
    db.skillVersion.findMany({ where: { runId, kind: "slow_update" }, select: { step: true, status: true } }),
  ]);
  const columns: HistoryColumn[] = codes.map((c) => {
    const byItem = new Map<string, ResultCode>();
    for (const entry of (c.cells ?? "").split(SEP)) if (entry) byItem.set(entry.slice(1), entry[0] as ResultCode);
    return { step: Number(c.step), label: c.label, skillHash: c.hash ?? "", codes: byItem };
  });
  const text = await latestTexts(db, runId, labels, latestEvaluations(columns));
  const slowUpdates = slow.map((v) => ({ step: v.step, action: v.status ?? "" }));
  const history = buildItemHistoryFromColumns(split, columns, steps, slowUpdates);
  for (const item of history.items) {
    const t = text.get(item.id);
    item.reference = t?.reference ?? null;
    item.lastPrediction = t?.prediction ?? null;
  }
  return history;
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

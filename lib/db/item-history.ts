/**
 * Reads the stored per-item results behind the item-history view: the split's result codes aggregated per
 * evaluation, each item's latest prediction and reference, and the steps' gate decisions and candidate hashes.
 */
import {
  ADOPTING_ACTIONS,
  buildItemHistory,
  type HistoryEvalRow,
  type ItemHistoryResponse,
  type ItemSplit,
} from "../contracts/item-history";
import { env } from "../config/env";
import { getDb, providerOf, writerStatsOf, type Db, type DbTx } from "./client";
import { getRun } from "./runs";

type CodeRow = { step: number | bigint; label: string; hash: string | null; cells: string | null };
type TextRow = { itemId: string; prediction: string | null; reference: string | null };

/** Separates `<code><itemId>` entries in an aggregated cell list (item ids never hold control characters). */
const SEP = "\u001e";

/** The evaluation labels a split's history reads (three slots; repeated when a split has fewer). */
type Labels = readonly [string, string, string];

/**
 * Per-evaluation result codes, aggregated in SQL: 40,000 rows become one string per evaluation, which
 * keeps a 1,000-step run's history well under a second (materialising every row costs seconds).
 */
async function evaluationCodes(db: DbTx, runId: string, [l1, l2, l3]: Labels): Promise<CodeRow[]> {
  if (isSqlite(db))
    return db.$queryRaw<CodeRow[]>`
      SELECT "step", "label", MIN("skillHash") AS hash,
        group_concat(CASE WHEN "status" <> 'ok' THEN 'e' WHEN "hard" >= 1 THEN '1' ELSE '0' END || "itemId", ${SEP}) AS cells
      FROM "EvalResult" WHERE "runId" = ${runId} AND ("label" = ${l1} OR "label" = ${l2} OR "label" = ${l3})
      GROUP BY "step", "label"`;
  return db.$queryRaw<CodeRow[]>`
    SELECT "step", "label", MIN("skillHash") AS hash,
      string_agg(CASE WHEN "status" <> 'ok' THEN 'e' WHEN "hard" >= 1 THEN '1' ELSE '0' END || "itemId", ${SEP}::text) AS cells
    FROM "EvalResult" WHERE "runId" = ${runId} AND ("label" = ${l1} OR "label" = ${l2} OR "label" = ${l3})
    GROUP BY "step", "label"`;
}

/** Each item's reference and the prediction of its latest stored evaluation. */
async function latestTexts(db: DbTx, runId: string, [l1, l2, l3]: Labels): Promise<TextRow[]> {
  return db.$queryRaw<TextRow[]>`
    SELECT "itemId", "prediction", "reference" FROM (
      SELECT "itemId", "prediction", "reference",
        ROW_NUMBER() OVER (PARTITION BY "itemId" ORDER BY "step" DESC) AS rn
      FROM "EvalResult" WHERE "runId" = ${runId} AND ("label" = ${l1} OR "label" = ${l2} OR "label" = ${l3})
    ) latest WHERE rn = 1`;
}

function isSqlite(db: DbTx): boolean {
  if (writerStatsOf(db as Db) !== null) return true;
  return providerOf(env().DATABASE_URL) === "sqlite";
}

export async function getItemHistory(
  runId: string,
  split: ItemSplit,
  { db = getDb() }: { db?: DbTx } = {},
): Promise<ItemHistoryResponse> {
  await getRun(runId, { db }); // 404 for an unknown run
  const labels: Labels =
    split === "selection" ? ["baseline", "selection", "slow_update"] : ["rollout", "rollout", "rollout"];
  const [codes, texts, steps, slow] = await Promise.all([
    evaluationCodes(db, runId, labels),
    latestTexts(db, runId, labels),
    db.step.findMany({ where: { runId }, select: { step: true, action: true, candidateHash: true } }),
    db.skillVersion.findMany({ where: { runId, kind: "slow_update" }, select: { step: true, status: true } }),
  ]);
  const rows: HistoryEvalRow[] = [];
  for (const c of codes) {
    for (const entry of (c.cells ?? "").split(SEP)) {
      if (!entry) continue;
      const code = entry[0]!;
      rows.push({
        step: Number(c.step),
        label: c.label,
        itemId: entry.slice(1),
        hard: code === "1" ? 1 : 0,
        status: code === "e" ? "error" : "ok",
        skillHash: c.hash ?? "",
        prediction: null,
        reference: null,
      });
    }
  }
  const slowUpdates = slow.map((v) => ({ step: v.step, action: v.status ?? "" }));
  const history = buildItemHistory(split, rows, steps, slowUpdates);
  const text = new Map(texts.map((t) => [t.itemId, t]));
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

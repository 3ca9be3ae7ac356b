/**
 * The runs table's page: filtered, searched and sorted rows from SQL (./run-list-sql.ts) and their tags;
 * the whole answer of GET /api/runs (also rendered by `/` on the server); and the tags and note a user
 * edits. Pages are numbered (offset), so a table of any size can jump to any page and show "page 3 of 205".
 */
import type { Prisma } from "../../generated/prisma-sqlite/client";
import type { RunListResponse } from "../contracts/api";
import type { RunAnnotations, RunsTableQuery } from "../contracts/run-list";
import { env } from "../config/env";
import { AppError } from "../errors";
import { getDb, providerOf, type DbProvider, type DbTx } from "./client";
import { listRunEnvs, RUN_LIST_SELECT } from "./runs";
import { countQuery, pageQuery, runColumns, tagsOfQuery } from "./run-list-sql";
import { toListItem } from "./run-views";

type Opts = { db?: DbTx };

/** Which SQL dialect `db` speaks (the generated client knows; a bare transaction falls back to DATABASE_URL). */
export function providerOfDb(db: DbTx): DbProvider {
  const p = (db as { _activeProvider?: string })._activeProvider;
  if (p === "sqlite" || p === "postgresql") return p;
  return providerOf(env().DATABASE_URL);
}

const LIST_SELECT = { ...RUN_LIST_SELECT, note: true } as const;
const LIST_COLUMNS = runColumns(Object.keys(LIST_SELECT));

type RunListRow = Prisma.RunGetPayload<{ select: typeof LIST_SELECT }> & { tags: string[] };

/** One page of the runs table and how many runs match in all. */
async function listRunsPage(
  q: RunsTableQuery,
  { db = getDb() }: Opts = {},
): Promise<{ runs: RunListRow[]; total: number }> {
  const [rows, countRows] = await Promise.all([
    db.$queryRaw<Array<Omit<RunListRow, "tags">>>(pageQuery(q, providerOfDb(db), LIST_COLUMNS)),
    db.$queryRaw<Array<{ n: number | bigint }>>(countQuery(q)),
  ]);
  const tagRows =
    rows.length === 0
      ? []
      : await db.$queryRaw<Array<{ runId: string; tag: string }>>(tagsOfQuery(rows.map((r) => r.id)));
  const tags = new Map<string, string[]>();
  for (const t of tagRows) tags.set(t.runId, [...(tags.get(t.runId) ?? []), t.tag]);
  // The rows are this query's own objects: completed in place, not copied (a 1,000-run page is copied once,
  // into the answer, by toListItem).
  const runs = rows as RunListRow[];
  for (const r of runs) {
    r.simulated = Boolean(r.simulated);
    r.tags = tags.get(r.id) ?? [];
  }
  return { runs, total: Number(countRows[0]?.n ?? 0) };
}

/** GET /api/runs: one page of the table, with the benchmarks and tags its filters offer. */
export async function listRunsTable(q: RunsTableQuery, opts: Opts = {}): Promise<RunListResponse> {
  const [{ runs, total }, envs, tags] = await Promise.all([
    listRunsPage(q, opts),
    listRunEnvs(opts),
    listRunTags(opts),
  ]);
  return { runs: runs.map(toListItem), total, page: q.page, limit: q.limit, envs, tags };
}

/** Every tag in use, for the table's tag filter. */
export async function listRunTags({ db = getDb() }: Opts = {}): Promise<string[]> {
  // GROUP BY in SQL: Prisma's `distinct` would read every tag row and dedup in memory.
  const rows = await db.runTag.groupBy({ by: ["tag"], orderBy: { tag: "asc" } });
  return rows.map((r) => r.tag);
}

/** Replaces a run's tags and note in one transaction; NOT_FOUND for an unknown run. */
export async function setRunAnnotations(
  runId: string,
  a: RunAnnotations,
  { db = getDb() }: { db?: Pick<ReturnType<typeof getDb>, "$transaction"> } = {},
): Promise<RunAnnotations> {
  return db.$transaction(async (tx) => {
    const found = await tx.run.updateMany({ where: { id: runId }, data: { note: a.note } });
    if (found.count === 0)
      throw new AppError("NOT_FOUND", `run ${runId} not found`, { userMessage: "This run does not exist." });
    await tx.runTag.deleteMany({ where: { runId } });
    if (a.tags.length > 0) await tx.runTag.createMany({ data: a.tags.map((tag) => ({ runId, tag })) });
    return a;
  });
}

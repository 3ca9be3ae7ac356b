/**
 * The runs table's page: filtered, searched and sorted ids from SQL (./run-list-sql.ts), then the rows
 * and their tags through Prisma; plus the tags and note a user edits. Pages are numbered (offset), so a
 * table of any size can jump to any page and show "page 3 of 205".
 */
import type { RunAnnotations, RunsTableQuery } from "../contracts/run-list";
import { env } from "../config/env";
import { AppError } from "../errors";
import { getDb, providerOf, type DbProvider, type DbTx } from "./client";
import { RUN_LIST_SELECT } from "./runs";
import { countQuery, pageIdsQuery } from "./run-list-sql";

type Opts = { db?: DbTx };

/** Which SQL dialect `db` speaks (the generated client knows; a bare transaction falls back to DATABASE_URL). */
export function providerOfDb(db: DbTx): DbProvider {
  const p = (db as { _activeProvider?: string })._activeProvider;
  if (p === "sqlite" || p === "postgresql") return p;
  return providerOf(env().DATABASE_URL);
}

export type RunListRow = Awaited<ReturnType<typeof readRows>>[number];

async function readRows(db: DbTx, ids: string[]) {
  const rows = await db.run.findMany({
    where: { id: { in: ids } },
    select: { ...RUN_LIST_SELECT, note: true, tags: { select: { tag: true }, orderBy: { tag: "asc" } } },
  });
  return rows.map(({ tags, ...r }) => ({ ...r, tags: tags.map((t) => t.tag) }));
}

/** One page of the runs table and how many runs match in all. */
export async function listRunsPage(
  q: RunsTableQuery,
  { db = getDb() }: Opts = {},
): Promise<{ runs: RunListRow[]; total: number }> {
  const provider = providerOfDb(db);
  const [idRows, countRows] = await Promise.all([
    db.$queryRaw<Array<{ id: string }>>(pageIdsQuery(q, provider)),
    db.$queryRaw<Array<{ n: number | bigint }>>(countQuery(q)),
  ]);
  const ids = idRows.map((r) => r.id);
  const byId = new Map((await readRows(db, ids)).map((r) => [r.id, r]));
  // A run deleted between the two reads is simply absent from this page.
  const runs = ids.map((id) => byId.get(id)).filter((r): r is RunListRow => r !== undefined);
  return { runs, total: Number(countRows[0]?.n ?? 0) };
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

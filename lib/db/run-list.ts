/**
 * The runs table's page: filtered, searched and sorted rows from SQL (./run-list-sql.ts) and their tags;
 * the whole answer of GET /api/runs (also rendered by `/` on the server); and the tags and note a user
 * edits. Pages are numbered (offset), so a table of any size can jump to any page and show "page 3 of 205".
 */
import type { RunListItem, RunListResponse } from "../contracts/api";
import { errorLine } from "../contracts/error-line";
import type { RunAnnotations, RunsTableQuery } from "../contracts/run-list";
import { AppError } from "../errors";
import { getDb, providerOfDb, type DbTx } from "./client";
import { listRunEnvs, RUN_LIST_SELECT } from "./runs";
import { countQuery, pageQuery, runColumns, tagsOfQuery } from "./run-list-sql";

type Opts = { db?: DbTx };

const LIST_SELECT = { ...RUN_LIST_SELECT, note: true } as const;
const LIST_COLUMNS = runColumns(Object.keys(LIST_SELECT));

/** A page row as the query returns it: Prisma reads the three timestamps as Dates, `simulated` as 0/1. */
type RunListRow = Omit<RunListItem, "createdAt" | "startedAt" | "finishedAt" | "simulated" | "tags"> & {
  createdAt: Date | string;
  startedAt: Date | string | null;
  finishedAt: Date | string | null;
  simulated: boolean | number;
};

const iso = (d: Date | string | null): string | null => (d instanceof Date ? d.toISOString() : d);

/**
 * The query's rows turned into list items in place, the same fields as `toListItem` (./run-views.ts) gives:
 * a 1,000-run page is neither copied nor spread (that copy was the largest share of the API's own CPU).
 */
function asListItems(rows: RunListRow[], tags: Map<string, string[]>): RunListItem[] {
  for (const r of rows) {
    const item = r as unknown as RunListItem;
    item.simulated = Boolean(r.simulated);
    item.createdAt = iso(r.createdAt)!;
    item.startedAt = iso(r.startedAt);
    item.finishedAt = iso(r.finishedAt);
    // Rows stored before errors were cleaned at the source still hold multi-line dumps: show one line.
    if (r.errorMessage !== null) item.errorMessage = errorLine(r.errorMessage);
    item.tags = tags.get(r.id) ?? [];
  }
  return rows as unknown as RunListItem[];
}

/** One page of the runs table and how many runs match in all. */
async function listRunsPage(
  q: RunsTableQuery,
  { db = getDb() }: Opts = {},
): Promise<{ runs: RunListItem[]; total: number }> {
  const [rows, countRows] = await Promise.all([
    db.$queryRaw<RunListRow[]>(pageQuery(q, providerOfDb(db), LIST_COLUMNS)),
    db.$queryRaw<Array<{ n: number | bigint }>>(countQuery(q)),
  ]);
  const tagRows =
    rows.length === 0
      ? []
      : await db.$queryRaw<Array<{ runId: string; tag: string }>>(tagsOfQuery(rows.map((r) => r.id)));
  const tags = new Map<string, string[]>();
  for (const t of tagRows) {
    const list = tags.get(t.runId);
    if (list) list.push(t.tag);
    else tags.set(t.runId, [t.tag]);
  }
  return { runs: asListItems(rows, tags), total: Number(countRows[0]?.n ?? 0) };
}

/** GET /api/runs: one page of the table, with the benchmarks and tags its filters offer. */
export async function listRunsTable(q: RunsTableQuery, opts: Opts = {}): Promise<RunListResponse> {
  const [{ runs, total }, envs, tags] = await Promise.all([
    listRunsPage(q, opts),
    listRunEnvs(opts),
    listRunTags(opts),
  ]);
  return { runs, total, page: q.page, limit: q.limit, envs, tags };
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

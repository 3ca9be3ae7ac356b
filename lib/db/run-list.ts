/**
 * The runs table's page: filtered, searched and sorted rows from SQL (./run-list-sql.ts) with their tags, as
 * JSON text (SQLite writes each row's, ./run-list-json.ts); the whole answer of GET /api/runs (also rendered
 * by `/` on the server); and the tags and note a user
 * edits. Pages are numbered (offset), so a table of any size can jump to any page and show "page 3 of 205".
 */
import type { RunListItem, RunListResponse } from "../contracts/api";
import { errorLine } from "../contracts/error-line";
import type { RunAnnotations, RunsTableQuery } from "../contracts/run-list";
import { AppError } from "../errors";
import { Prisma } from "../../generated/prisma-sqlite/client";
import { getDb, providerOfDb, type DbTx } from "./client";
import { listRunEnvs, RUN_LIST_SELECT } from "./runs";
import { sqliteRowJsonColumns } from "./run-list-json";
import { countQuery, pageQuery, runColumns } from "./run-list-sql";

type Opts = { db?: DbTx };

/** The list's columns and each run's tags, alphabetical (in the page's query: no second round trip). */
const PG_COLUMNS = Prisma.sql`${runColumns(Object.keys({ ...RUN_LIST_SELECT, note: true }))},
  ARRAY(SELECT t."tag" FROM "RunTag" t WHERE t."runId" = r."id" ORDER BY t."tag") AS "tags"`;

/** A page row as PostgreSQL's query returns it (Prisma reads the three timestamps as Dates). */
type RunListRow = Omit<RunListItem, "createdAt" | "startedAt" | "finishedAt"> & {
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * PostgreSQL's page: the rows turned into list items in place, the same fields as `toListItem`
 * (./run-views.ts) gives: a 1,000-run page is neither copied nor spread.
 */
async function pgPageItems(q: RunsTableQuery, db: DbTx): Promise<RunListItem[]> {
  const rows = await db.$queryRaw<RunListRow[]>(pageQuery(q, "postgresql", PG_COLUMNS));
  for (const r of rows) {
    const item = r as unknown as RunListItem;
    item.createdAt = iso(r.createdAt)!;
    item.startedAt = iso(r.startedAt);
    item.finishedAt = iso(r.finishedAt);
    if (r.errorMessage !== null) item.errorMessage = errorLine(r.errorMessage);
  }
  return rows as unknown as RunListItem[];
}

/** SQLite's page: each run's JSON text as SQLite writes it (./run-list-json.ts). */
async function sqlitePageJson(q: RunsTableQuery, db: DbTx): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ j: string; e: string | null }>>(
    pageQuery(q, "sqlite", sqliteRowJsonColumns()),
  );
  return rows.map(({ j, e }) => {
    if (e === null) return j;
    const item = JSON.parse(j) as { errorMessage: string | null };
    item.errorMessage = errorLine(e);
    return JSON.stringify(item);
  });
}

/**
 * One page of the runs table as the JSON text of its array of list items, and how many runs match in all.
 * Rows stored before errors were cleaned at the source still hold multi-line dumps: the list shows a stored
 * error through `errorLine`, one line, as the detail does.
 */
async function listRunsPage(q: RunsTableQuery, { db = getDb() }: Opts = {}): Promise<{ runs: string; total: number }> {
  const [runs, countRows] = await Promise.all([
    providerOfDb(db) === "sqlite"
      ? sqlitePageJson(q, db).then((rows) => `[${rows.join(",")}]`)
      : pgPageItems(q, db).then((items) => JSON.stringify(items)),
    db.$queryRaw<Array<{ n: number | bigint }>>(countQuery(q)),
  ]);
  return { runs, total: Number(countRows[0]?.n ?? 0) };
}

/**
 * GET /api/runs as JSON text: one page of the table, with the benchmarks and tags its filters offer
 * (`RunListResponse`). On SQLite the rows arrive as JSON and are joined, never parsed.
 */
export async function listRunsTableJson(q: RunsTableQuery, opts: Opts = {}): Promise<string> {
  const [{ runs, total }, envs, tags] = await Promise.all([
    listRunsPage(q, opts),
    listRunEnvs(opts),
    listRunTags(opts),
  ]);
  const rest = JSON.stringify({ total, page: q.page, limit: q.limit, envs, tags } satisfies Omit<
    RunListResponse,
    "runs"
  >);
  return `{"runs":${runs},${rest.slice(1)}`;
}

/** The same answer as objects (the server render of `/`). */
export async function listRunsTable(q: RunsTableQuery, opts: Opts = {}): Promise<RunListResponse> {
  return JSON.parse(await listRunsTableJson(q, opts)) as RunListResponse;
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

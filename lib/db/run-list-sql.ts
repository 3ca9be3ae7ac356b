/**
 * The SQL behind the runs table's page: filters, text search and the ORDER BY of every sortable column.
 * Raw SQL because three columns are expressions (tokens, test gain, duration) that Prisma cannot order by.
 * The page query returns the list's columns itself: reading ids first and then the rows through Prisma
 * (`id IN (…1,000 ids)`) cost more than twice the CPU of this one query at 1,000 rows.
 * Portable between SQLite and PostgreSQL except the duration, which needs each one's date arithmetic.
 */
import { Prisma } from "../../generated/prisma-sqlite/client";
import type { RunSortKey, RunsTableQuery } from "../contracts/run-list";
import type { DbProvider } from "./client";

const ACTIVE = Prisma.sql`('queued', 'running', 'cancelling')`;

/** Seconds from start to finish (to now while active; null for a run that stopped without a finish time). */
function durationExpr(provider: DbProvider): Prisma.Sql {
  if (provider === "postgresql")
    return Prisma.sql`EXTRACT(EPOCH FROM (CASE WHEN r."status" IN ${ACTIVE} THEN (NOW() AT TIME ZONE 'UTC') ELSE r."finishedAt" END) - r."startedAt")`;
  // Prisma's SQLite adapter stores DateTime as ISO-8601 text, which julianday() reads.
  return Prisma.sql`(julianday(CASE WHEN r."status" IN ${ACTIVE} THEN 'now' ELSE r."finishedAt" END) - julianday(r."startedAt")) * 86400.0`;
}

/** The expression each sort key orders by (ties: newest first, then id, so pages never overlap). */
export function sortExpr(key: RunSortKey, provider: DbProvider): Prisma.Sql {
  switch (key) {
    case "status":
      return Prisma.sql`r."status"`;
    case "name":
      return Prisma.sql`LOWER(r."name")`;
    case "env":
      return Prisma.sql`r."env"`;
    case "optimizer":
      return Prisma.sql`LOWER(r."optimizerBackend" || '/' || r."optimizerModel")`;
    case "target":
      return Prisma.sql`LOWER(r."targetBackend" || '/' || r."targetModel")`;
    case "selection":
      return Prisma.sql`r."bestScore"`;
    case "testBest":
      return Prisma.sql`r."testBest"`;
    case "testGain":
      return Prisma.sql`(r."testBest" - r."testInitial")`;
    case "steps":
      return Prisma.sql`r."stepsDone"`;
    case "tokens":
      return Prisma.sql`(r."promptTokens" + r."completionTokens")`;
    case "cost":
      return Prisma.sql`r."costUsd"`;
    case "started":
      return Prisma.sql`COALESCE(r."startedAt", r."createdAt")`;
    case "duration":
      return durationExpr(provider);
  }
}

/** `text` as a LIKE pattern matching it anywhere, with LIKE's own wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type Filters = Pick<RunsTableQuery, "status" | "env" | "tag" | "q">;

/** The WHERE clause (or nothing) for the table's filters and search. */
export function whereClause(f: Filters): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (f.status) parts.push(Prisma.sql`r."status" = ${f.status}`);
  if (f.env) parts.push(Prisma.sql`r."env" = ${f.env}`);
  if (f.tag) parts.push(Prisma.sql`EXISTS (SELECT 1 FROM "RunTag" t WHERE t."runId" = r."id" AND t."tag" = ${f.tag})`);
  if (f.q) {
    const p = containsPattern(f.q);
    const like = (col: string) => Prisma.sql`LOWER(${Prisma.raw(col)}) LIKE ${p} ESCAPE '\\'`;
    const cols = [
      'r."name"',
      'r."id"',
      'r."env"',
      'r."optimizerModel"',
      'r."targetModel"',
      'r."optimizerBackend"',
      'r."targetBackend"',
      `COALESCE(r."note", '')`,
    ];
    parts.push(
      Prisma.sql`(${Prisma.join(
        [
          ...cols.map(like),
          Prisma.sql`EXISTS (SELECT 1 FROM "RunTag" t WHERE t."runId" = r."id" AND t."tag" LIKE ${p} ESCAPE '\\')`,
        ],
        " OR ",
      )})`,
    );
  }
  return parts.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}`;
}

/** `r."a", r."b", …`: the given Run columns (names from a Prisma select, never user input). */
export function runColumns(names: readonly string[]): Prisma.Sql {
  return Prisma.raw(names.map((c) => `r."${c}"`).join(", "));
}

/**
 * One page of runs in the table's order, with the `columns` given (`runColumns`, or `sqliteRowJsonColumns`
 * in ./run-list-json.ts); runs without a value for the sorted column come last either way.
 */
export function pageQuery(q: RunsTableQuery, provider: DbProvider, columns: Prisma.Sql): Prisma.Sql {
  const expr = sortExpr(q.sort, provider);
  const dir = Prisma.raw(q.dir === "asc" ? "ASC" : "DESC");
  const offset = (q.page - 1) * q.limit;
  // The start time is never null (createdAt is required): without the nulls-last term the default order
  // (newest first) is read from the Run_started_sort_idx index instead of sorting every run.
  const nullsLast = q.sort === "started" ? Prisma.empty : Prisma.sql`CASE WHEN ${expr} IS NULL THEN 1 ELSE 0 END, `;
  return Prisma.sql`SELECT ${columns} FROM "Run" r ${whereClause(q)}
    ORDER BY ${nullsLast}${expr} ${dir}, r."createdAt" DESC, r."id" DESC
    LIMIT ${q.limit} OFFSET ${offset}`;
}

export function countQuery(q: Filters): Prisma.Sql {
  return Prisma.sql`SELECT COUNT(*) AS n FROM "Run" r ${whereClause(q)}`;
}

/**
 * A runs-table row as JSON text built by SQLite (json_object): the list answer is then 1,000 strings joined,
 * not 30,000 values turned into JS objects by the driver and Prisma and serialised again, which was most of
 * GET /api/runs?limit=1000's time on SQLite (its own part ≈23 → ≈12 ms). The text parses to exactly what
 * `toListItem` (./run-views.ts) gives for the row, key order included, with one exception left to
 * ./run-list.ts: a stored error message is shown through `errorLine`, which SQL cannot apply.
 * PostgreSQL is not asked for JSON: its row_to_json took ≈15 ms for 1,000 rows where the plain columns take
 * ≈7 ms, more than Prisma and JSON.stringify spend on them in Node.
 */
import { Prisma } from "../../generated/prisma-sqlite/client";
import type { RunListItem } from "../contracts/api";

/** How a column becomes a JSON value: as it is, a boolean, a finite number or null, an ISO-8601 UTC time. */
type Kind = "value" | "bool" | "float" | "time";

/** Every field of a list item but `tags`, in the answer's order, with how its column is written. */
const FIELDS = {
  id: "value",
  name: "value",
  status: "value",
  env: "value",
  optimizerBackend: "value",
  optimizerModel: "value",
  targetBackend: "value",
  targetModel: "value",
  simulated: "bool",
  source: "value",
  baselineScore: "float",
  bestScore: "float",
  bestOrigin: "value",
  bestMeasuredBy: "value",
  bestBytes: "value",
  testInitial: "float",
  testBest: "float",
  stepsDone: "value",
  stepsTotal: "value",
  epoch: "value",
  numEpochs: "value",
  calls: "value",
  promptTokens: "value",
  completionTokens: "value",
  costUsd: "float",
  createdAt: "time",
  startedAt: "time",
  finishedAt: "time",
  errorMessage: "value",
  note: "value",
} as const satisfies Record<Exclude<keyof RunListItem, "tags">, Kind>;

/** Largest finite double: JSON.stringify writes ±Infinity and NaN as null, so the SQL does too. */
const MAX_DOUBLE = "1.7976931348623157e308";

function valueSql(col: string, kind: Kind): string {
  const c = `r."${col}"`;
  switch (kind) {
    case "value":
      return c;
    case "float":
      // SQLite stores NaN as NULL; the infinities fail the range test.
      return `CASE WHEN ${c} BETWEEN -${MAX_DOUBLE} AND ${MAX_DOUBLE} THEN ${c} END`;
    case "bool":
      // Prisma stores Boolean as 0/1.
      return `CASE WHEN ${c} THEN json('true') ELSE json('false') END`;
    case "time":
      // Prisma stores DateTime as ISO-8601 text (…+00:00); strftime also reads SQLite's own formats.
      return `strftime('%Y-%m-%dT%H:%M:%fZ', ${c})`;
  }
}

/** The run's tags as a JSON array, alphabetical (the run's rows of the RunTag primary key). */
const TAGS = `json((SELECT json_group_array(t."tag" ORDER BY t."tag") FROM "RunTag" t WHERE t."runId" = r."id"))`;

const ROW_JSON = Prisma.raw(
  `json_object(${Object.entries(FIELDS)
    .map(([name, kind]) => `'${name}', ${valueSql(name, kind)}`)
    .join(", ")}, 'tags', ${TAGS}) AS "j", r."errorMessage" AS "e"`,
);

/**
 * The select list of a SQLite page query (./run-list-sql.ts `pageQuery`) that returns each run as JSON text
 * in `j` and its stored error message, or null, in `e`.
 */
export function sqliteRowJsonColumns(): Prisma.Sql {
  return ROW_JSON;
}

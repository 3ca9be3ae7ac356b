/**
 * GET /api/runs has SQLite write each row's JSON (lib/db/run-list-json.ts) and serialises PostgreSQL's rows in
 * Node. On both databases its answer must be what the typed Prisma row gives through `toListItem` (the run
 * detail's own mapping) and `Response.json`: the same values (times as ISO-8601 UTC with milliseconds, booleans, floats that need 17
 * digits, infinities as null, text with quotes, control characters and emoji, tags in order, one-line errors)
 * and the same key order as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runsRoute from "../../app/api/runs/route";
import { Prisma } from "../../generated/prisma-sqlite/client";
import type { RunListItem, RunListResponse } from "../../lib/contracts/api";
import { RunsTableQuerySchema } from "../../lib/contracts/run-list";
import type { Db } from "../../lib/db/client";
import { listRunsTable } from "../../lib/db/run-list";
import { RUN_LIST_SELECT } from "../../lib/db/runs";
import { toListItem } from "../../lib/db/run-views";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";
import { seedRun } from "../helpers/runs";

const at = (s: number, ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s, ms));

async function get(q: string): Promise<{ type: string | null; body: RunListResponse }> {
  const res = await runsRoute.GET(new Request(`http://127.0.0.1:7860/api/runs?${q}`));
  expect(res.status).toBe(200);
  return { type: res.headers.get("content-type"), body: (await res.json()) as RunListResponse };
}

describe.each(PROVIDERS)("the runs list's answer on %s", (provider) => {
  let db: Db;
  /** Each run as `toListItem` maps it, through JSON as Response.json sent it (infinities become null). */
  let expected: Map<string, RunListItem>;

  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
    await seedRun(db, {
      name: 'quotes " \\ and\nnew line\ttab \u0001 é 😀',
      createdAt: at(1, 1),
      startedAt: at(2, 20),
      finishedAt: at(3, 999),
      note: "<b>&</b>",
      tags: ["zeta", "alpha", "mid"],
      bestOrigin: "step_0009",
      bestMeasuredBy: "step_gate",
      bestBytes: 1234,
      stepsDone: 7,
      calls: 2_000_000_000,
    });
    await seedRun(db, {
      name: "failed with a dump",
      status: "failed",
      simulated: false,
      createdAt: at(4, 0),
      errorMessage: "Error: backend said no\n    at call (/srv/app/lib/backends/x.ts:10:5)",
    });
    await seedRun(db, {
      name: "plain error",
      status: "failed",
      createdAt: at(5, 500),
      startedAt: at(5, 501),
      errorMessage: "rate limited",
      tags: ["only"],
    });
    const floats = await seedRun(db, { name: "floats", createdAt: at(6, 6) });
    const infinite = await seedRun(db, { name: "infinite", createdAt: at(7, 7) });
    // Literals in SQL: Prisma's own parameters round some doubles (0.1 + 0.2 is stored as 0.3).
    await db.$executeRaw(
      Prisma.sql`UPDATE "Run" SET "baselineScore" = 0.30000000000000004, "bestScore" = 0.1, "testInitial" = 5e-7,
        "testBest" = 1e21, "costUsd" = 123456.789012345 WHERE "id" = ${floats}`,
    );
    await db.$executeRaw(
      provider === "postgresql"
        ? Prisma.sql`UPDATE "Run" SET "bestScore" = 'Infinity', "testBest" = '-Infinity', "costUsd" = 'NaN' WHERE "id" = ${infinite}`
        : Prisma.sql`UPDATE "Run" SET "bestScore" = 9e999, "testBest" = -9e999 WHERE "id" = ${infinite}`,
    );
    const rows = await db.run.findMany({
      select: { ...RUN_LIST_SELECT, note: true, tags: { select: { tag: true }, orderBy: { tag: "asc" } } },
    });
    expected = new Map(
      rows.map((r) => [
        r.id,
        JSON.parse(JSON.stringify(toListItem({ ...r, tags: r.tags.map((t) => t.tag) }))) as RunListItem,
      ]),
    );
  });
  afterAll(() => db.$disconnect());

  it("answers every run with the values and key order of the typed row", async () => {
    const { type, body } = await get("limit=1000");
    expect(type).toBe("application/json");
    expect(body.runs.map((r) => r.name)).toEqual([
      "infinite",
      "floats",
      "plain error",
      "failed with a dump",
      'quotes " \\ and\nnew line\ttab \u0001 é 😀',
    ]);
    for (const item of body.runs) {
      expect(item).toEqual(expected.get(item.id));
      expect(Object.keys(item)).toEqual([...Object.keys(RUN_LIST_SELECT), "note", "tags"]);
    }
    const byName = new Map(body.runs.map((r) => [r.name, r]));
    expect(byName.get("floats")).toMatchObject({
      baselineScore: 0.30000000000000004,
      testInitial: 5e-7,
      testBest: 1e21,
      costUsd: 123456.789012345,
    });
    expect(byName.get("infinite")).toMatchObject({ bestScore: null, testBest: null, costUsd: null });
    const first = byName.get('quotes " \\ and\nnew line\ttab \u0001 é 😀')!;
    expect(first).toMatchObject({
      tags: ["alpha", "mid", "zeta"],
      createdAt: "2026-01-01T00:00:01.001Z",
      startedAt: "2026-01-01T00:00:02.020Z",
      finishedAt: "2026-01-01T00:00:03.999Z",
      simulated: true,
      calls: 2_000_000_000,
    });
    expect(byName.get("failed with a dump")).toMatchObject({
      errorMessage: "backend said no",
      simulated: false,
      tags: [],
    });
    expect(body).toMatchObject({
      total: 5,
      page: 1,
      limit: 1000,
      envs: ["searchqa"],
      tags: ["alpha", "mid", "only", "zeta"],
    });
  });

  it("gives the same rows filtered, searched, sorted and paged, and the same answer as objects", async () => {
    for (const q of ["status=failed", "tag=only", "q=ALPHA", "sort=testGain&dir=desc", "sort=name&limit=2&page=2"]) {
      const { body } = await get(q);
      expect(body.runs.length).toBeGreaterThan(0);
      for (const item of body.runs) expect(item).toEqual(expected.get(item.id));
      expect(await listRunsTable(RunsTableQuerySchema.parse(Object.fromEntries(new URLSearchParams(q))))).toEqual(body);
    }
    expect((await get("page=5")).body.runs).toEqual([]);
  });
});

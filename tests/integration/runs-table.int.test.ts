/**
 * The runs table on both databases: every sort key (derived columns and missing values included), text
 * search with LIKE wildcards taken literally, tag filter, numbered pages, tags and note with field-named
 * errors, and delete (refused while active; rows and a CLI run's folder gone, nothing else touched).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as annotationsRoute from "../../app/api/runs/[runId]/annotations/route";
import * as runRoute from "../../app/api/runs/[runId]/route";
import * as runsRoute from "../../app/api/runs/route";
import type { RunListResponse } from "../../lib/contracts/api";
import { RunsTableQuerySchema } from "../../lib/contracts/run-list";
import { pageQuery, runColumns } from "../../lib/db/run-list-sql";
import { Prisma } from "../../generated/prisma-sqlite/client";
import type { Db } from "../../lib/db/client";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";
import { seedRun } from "../helpers/runs";

const base = "http://127.0.0.1:7860";
const params = (runId: string) => ({ params: Promise.resolve({ runId }) });
const list = async (q: string) => {
  const res = await runsRoute.GET(new Request(`${base}/api/runs?${q}`));
  expect(res.status).toBe(200);
  return (await res.json()) as RunListResponse;
};
const names = (r: RunListResponse) => r.runs.map((x) => x.name);
const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe.each(PROVIDERS)("runs table on %s", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
    // a: cheap, small gain, long; b: expensive, big gain, short; c: nothing measured; d: a loss.
    await seedRun(db, {
      name: "Alpha 50%_off",
      createdAt: t(1),
      startedAt: t(1),
      finishedAt: t(301),
      testInitial: 0.5,
      testBest: 0.55,
      promptTokens: 100,
      completionTokens: 10,
      costUsd: 0.01,
      bestScore: 0.6,
      stepsDone: 3,
      tags: ["baseline"],
    });
    await seedRun(db, {
      name: "beta",
      createdAt: t(2),
      startedAt: t(2),
      finishedAt: t(62),
      testInitial: 0.2,
      testBest: 0.6,
      promptTokens: 5000,
      completionTokens: 5000,
      costUsd: 2.5,
      bestScore: 0.9,
      stepsDone: 9,
      note: "Tried the Qwen prompt",
      targetModel: "qwen-max",
    });
    // A multi-line error as rows stored before errors were cleaned hold it: the list shows one line, as the detail.
    await seedRun(db, {
      name: "gamma",
      createdAt: t(3),
      status: "failed",
      optimizerModel: "gpt-x",
      errorMessage: "Error: backend said no\n    at call (/srv/app/lib/backends/x.ts:10:5)",
    });
    await seedRun(db, {
      name: "delta",
      createdAt: t(4),
      startedAt: t(4),
      finishedAt: t(14),
      testInitial: 0.7,
      testBest: 0.6,
      promptTokens: 1000,
      completionTokens: 0,
      costUsd: 0.5,
      bestScore: 0.7,
      stepsDone: 5,
      env: "livemath",
      tags: ["baseline", "seed-2"],
    });
  });
  afterAll(() => db.$disconnect());

  it("sorts by every column, derived ones included, with missing values last both ways", async () => {
    expect(names(await list(""))).toEqual(["delta", "gamma", "beta", "Alpha 50%_off"]);
    expect(names(await list("sort=testGain&dir=desc"))).toEqual(["beta", "Alpha 50%_off", "delta", "gamma"]);
    expect(names(await list("sort=testGain&dir=asc"))).toEqual(["delta", "Alpha 50%_off", "beta", "gamma"]);
    expect(names(await list("sort=tokens&dir=desc"))).toEqual(["beta", "delta", "Alpha 50%_off", "gamma"]);
    expect(names(await list("sort=cost&dir=asc"))).toEqual(["Alpha 50%_off", "delta", "beta", "gamma"]);
    expect(names(await list("sort=duration&dir=desc"))).toEqual(["Alpha 50%_off", "beta", "delta", "gamma"]);
    expect(names(await list("sort=name&dir=asc"))).toEqual(["Alpha 50%_off", "beta", "delta", "gamma"]);
    expect(names(await list("sort=selection&dir=desc"))[0]).toBe("beta");
    expect(names(await list("sort=steps&dir=asc"))).toEqual(["gamma", "Alpha 50%_off", "delta", "beta"]);
    expect(names(await list("sort=optimizer&dir=asc"))[0]).toBe("gamma");
    expect(names(await list("sort=target&dir=asc"))[0]).toBe("beta");
    for (const key of ["status", "env", "testBest", "started"]) expect((await list(`sort=${key}`)).total).toBe(4);
    expect((await runsRoute.GET(new Request(`${base}/api/runs?sort=bogus`))).status).toBe(422);
  });

  it("reads the default order (newest first) from its index, not by sorting every run", async () => {
    const q = pageQuery(RunsTableQuerySchema.parse({}), provider, runColumns(["id", "name"]));
    const plan =
      provider === "sqlite"
        ? (await db.$queryRaw<Array<{ detail: string }>>(Prisma.sql`EXPLAIN QUERY PLAN ${q}`)).map((r) => r.detail)
        : await db.$transaction(async (tx) => {
            // Four rows: the planner would rather scan them. Without the index it has nothing else to use.
            await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
            const rows = await tx.$queryRaw<Array<{ "QUERY PLAN": string }>>(Prisma.sql`EXPLAIN ${q}`);
            return rows.map((r) => r["QUERY PLAN"]);
          });
    expect(plan.join("\n")).toContain("Run_started_sort_idx");
    expect(plan.join("\n")).not.toMatch(/TEMP B-TREE|Sort Key/);
  });

  it("searches name, note, model and tags case-insensitively, with % and _ taken literally", async () => {
    expect(names(await list("q=ALPHA"))).toEqual(["Alpha 50%_off"]);
    expect(names(await list("q=50%25_"))).toEqual(["Alpha 50%_off"]);
    expect(names(await list("q=%25"))).toEqual(["Alpha 50%_off"]);
    expect(names(await list("q=qwen"))).toEqual(["beta"]);
    expect(names(await list("q=gpt-x"))).toEqual(["gamma"]);
    expect(names(await list("q=seed-2"))).toEqual(["delta"]);
    expect(names(await list("tag=baseline&sort=name&dir=asc"))).toEqual(["Alpha 50%_off", "delta"]);
    expect(names(await list("q=baseline&env=livemath"))).toEqual(["delta"]);
    const all = await list("");
    expect(all.tags).toEqual(["baseline", "seed-2"]);
    expect(all.runs.find((r) => r.name === "delta")!.tags).toEqual(["baseline", "seed-2"]);
  });

  it("lists each run with exactly the values of its detail (the page is read in one SQL query)", async () => {
    for (const item of (await list("")).runs) {
      const detail = (await (
        await runRoute.GET(new Request(`${base}/api/runs/${item.id}`), params(item.id))
      ).json()) as Record<string, unknown>;
      for (const [key, value] of Object.entries(item)) expect([key, value]).toEqual([key, detail[key]]);
      expect(typeof item.simulated).toBe("boolean");
      expect(item.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it("pages by number with a total, beyond what one page holds", async () => {
    const p1 = await list("limit=3&sort=name&dir=asc");
    const p2 = await list("limit=3&sort=name&dir=asc&page=2");
    expect([p1.total, p1.runs.length, p2.runs.length]).toEqual([4, 3, 1]);
    expect(names(p2)).toEqual(["gamma"]);
    expect((await list("page=9")).runs).toEqual([]);
    expect((await runsRoute.GET(new Request(`${base}/api/runs?page=0`))).status).toBe(422);
  });

  it("saves tags and a note, and names the field of a bad value", async () => {
    const id = (await list("q=gamma")).runs[0]!.id;
    const put = (body: unknown) =>
      annotationsRoute.PUT(
        new Request(`${base}/api/runs/${id}/annotations`, { method: "PUT", body: JSON.stringify(body) }),
        params(id),
      );
    const ok = await put({ tags: ["Ablation", "ablation", "x:1"], note: "  keep this one  " });
    expect(ok.status).toBe(200);
    const row = (await list("q=gamma")).runs[0]!;
    expect([row.tags, row.note]).toEqual([["ablation", "x:1"], "keep this one"]);
    const bad = await put({ tags: ["fine", "has space"], note: null });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe("tags.1");
    const long = await put({ tags: [], note: "x".repeat(2001) });
    expect(((await long.json()) as { error: { field: string } }).error.field).toBe("note");
    // Nothing half-written: the refused requests left the saved values as they were.
    expect((await list("q=gamma")).runs[0]!.tags).toEqual(["ablation", "x:1"]);
    const gone = "00000000-0000-4000-8000-000000000000";
    expect(
      (
        await annotationsRoute.PUT(
          new Request(`${base}/x`, { method: "PUT", body: '{"tags":[],"note":null}' }),
          params(gone),
        )
      ).status,
    ).toBe(404);
  });

  it("deletes a stopped run with its rows, refuses an active one, and removes only a CLI run's own folder", async () => {
    const del = (id: string) =>
      runRoute.DELETE(new Request(`${base}/api/runs/${id}`, { method: "DELETE" }), params(id));
    const running = await seedRun(db, { name: "busy", status: "running", heartbeatAt: new Date() });
    const refused = await del(running);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Cancel it first/);
    expect(await db.run.findUnique({ where: { id: running } })).not.toBeNull();

    const id = await seedRun(db, { name: "to delete", tags: ["gone"] });
    await db.step.create({
      data: { runId: id, step: 1, epoch: 1, stepInEpoch: 0, action: "accept", recordJson: "{}" },
    });
    await db.runEvent.create({ data: { runId: id, seq: 1, type: "runStarted", payload: "{}" } });
    expect((await del(id)).status).toBe(200);
    expect(await db.run.findUnique({ where: { id } })).toBeNull();
    expect(await db.step.count({ where: { runId: id } })).toBe(0);
    expect(await db.runEvent.count({ where: { runId: id } })).toBe(0);
    expect(await db.runTag.count({ where: { runId: id } })).toBe(0);
    expect((await del(id)).status).toBe(404);

    const out = mkdtempSync(join(tmpdir(), "skillopt-cli-run-"));
    writeFileSync(join(out, "runtime_state.json"), "{}");
    mkdirSync(join(out, "skills"));
    const cli = await seedRun(db, { name: "cli run", source: "cli", outDir: out, status: "cancelled" });
    const res = await del(cli);
    expect(((await res.json()) as { removedPaths: string[] }).removedPaths).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
    // A CLI run whose --out was the project itself keeps the project.
    const risky = await seedRun(db, { name: "cli at root", source: "cli", outDir: process.cwd(), status: "failed" });
    expect(((await (await del(risky)).json()) as { removedPaths: string[] }).removedPaths).toEqual([]);
    expect(existsSync(join(process.cwd(), "package.json"))).toBe(true);
  });
});

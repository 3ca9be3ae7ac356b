/**
 * Transfer matrix requests through the route handlers: a budget cap refuses, before anything is queued, a
 * request whose estimated target calls exceed it; a failed cell is queued again alone by its Retry API.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as retryRoute from "../../app/api/runs/[runId]/transfer/cells/[cellId]/retry/route";
import * as transferRoute from "../../app/api/runs/[runId]/transfer/route";
import { loadRunConfig } from "../../lib/config";
import type { Db } from "../../lib/db/client";
import { createRun } from "../../lib/db/runs";
import { closeTransferQueue } from "../../lib/queue/transfer";
import { prepareRun } from "../../lib/runs/prepare";
import { handleOptimizeRun } from "../../worker/handlers/optimize-run";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";

const quiet = { info: () => {}, warn: () => {} };
const ctx = {
  workerId: "w-transfer",
  rootDir: process.cwd(),
  shutdown: new AbortController().signal,
  staleAfterMs: 60_000,
  publish: () => {},
  log: quiet,
};
const post = (path: string, json?: unknown) =>
  new Request(`http://127.0.0.1:7860${path}`, {
    method: "POST",
    headers: { host: "127.0.0.1:7860", "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

afterAll(async () => {
  await closeTransferQueue();
});

describe.each(PROVIDERS)("transfer budget and retry on %s", (provider) => {
  let db: Db;
  let runId: string;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
    const { config, resolvedYaml } = loadRunConfig("configs/searchqa/sample.yaml", ["train.num_epochs=1"]);
    runId = randomUUID();
    await createRun(
      {
        id: runId,
        name: "transfer",
        config,
        sourceYaml: resolvedYaml,
        seedSkill: prepareRun({ config, rootDir: process.cwd(), trust: "local" }).initialSkill,
        optimizerBackend: "sim",
        targetBackend: "sim",
        simulated: true,
        stepsTotal: 3,
      },
      { db },
    );
    expect(await handleOptimizeRun(runId, ctx)).toBe("succeeded");
  }, 180_000);
  afterAll(async () => {
    await db.$disconnect();
  });

  const queue = (body: unknown) =>
    transferRoute.POST(post(`/api/runs/${runId}/transfer`, body), { params: Promise.resolve({ runId }) });

  it("refuses a request over its maxCalls with the estimate, queues nothing; under the cap it queues", async () => {
    const started = await db.runEvent.findFirst({ where: { runId, type: "runStarted" } });
    const testSize = (JSON.parse(started!.payload) as { testSize: number }).testSize;
    expect(testSize).toBeGreaterThan(0);
    const targets = [{ backend: "sim", model: "sim-target-large" }];
    // SearchQA at max_turns 1: one call per test item; one target = seed + best = 2 cells.
    const over = await queue({ targets, maxCalls: 2 * testSize - 1 });
    expect(over.status).toBe(422);
    const err = ((await over.json()) as { error: { field: string; message: string } }).error;
    expect(err.field).toBe("maxCalls");
    expect(err.message).toContain(`up to ${2 * testSize} target calls (2 cells × ${testSize} test items)`);
    expect(err.message).toContain("nothing was queued");
    expect(await db.transferCell.count({ where: { runId } })).toBe(0);
    const bad = await queue({ targets, maxCalls: 0 });
    expect(bad.status).toBe(422);

    const ok = await queue({ targets, maxCalls: 2 * testSize });
    expect([200, 202]).toContain(ok.status);
    expect(((await ok.json()) as { cells: number }).cells).toBe(2);
    expect(await db.transferCell.count({ where: { runId, status: "queued" } })).toBe(2);
  });

  it("Retry queues one failed cell again and leaves the others; refused for a cell that did not fail", async () => {
    const cells = await db.transferCell.findMany({ where: { runId }, orderBy: { skill: "asc" } });
    const [failed, other] = [cells[0]!, cells[1]!];
    await db.transferCell.update({
      where: { id: failed.id },
      data: { status: "failed", errorMessage: "target unreachable", finishedAt: new Date() },
    });
    await db.transferCell.update({ where: { id: other.id }, data: { status: "succeeded", hard: 0.5 } });
    const retry = (cellId: string) =>
      retryRoute.POST(post(`/api/runs/${runId}/transfer/cells/${cellId}/retry`), {
        params: Promise.resolve({ runId, cellId }),
      });
    const res = await retry(failed.id);
    expect([200, 202]).toContain(res.status);
    const after = await db.transferCell.findMany({ where: { runId }, orderBy: { skill: "asc" } });
    expect(after.map((c) => [c.id, c.status, c.errorMessage])).toEqual([
      [failed.id, "queued", null],
      [other.id, "succeeded", null],
    ]);
    const again = await retry(failed.id);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain(
      "Only a failed cell can be retried (this one is queued)",
    );
    expect((await retry(randomUUID())).status).toBe(404);
  });
});

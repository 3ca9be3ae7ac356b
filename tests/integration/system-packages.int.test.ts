/**
 * A SpreadsheetBench run on a machine that lacks its system packages and may not install them
 * (SKILLOPT_NO_AUTO_INSTALL=1, and a PATH without bwrap): the estimate and run creation answer 503 naming
 * the command and write nothing; a run already queued fails with that message in the worker.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as estimateRoute from "../../app/api/runs/estimate/route";
import * as runsRoute from "../../app/api/runs/route";
import type { Db } from "../../lib/db/client";
import { findRun } from "../../lib/db/runs";
import { QUEUES, redisOptions } from "../../lib/queue";
import { closeQueue, getRunQueue } from "../../lib/queue/producer";
import { createRunFromRequest } from "../../lib/runs/create";
import { optimizeRunProcessor } from "../../worker/processors/optimize-run";
import { freshDb, useAsDefaultDb } from "../helpers/db";

const post = (path: string, body: unknown) =>
  new Request(`http://127.0.0.1:7860${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
const request = { preset: "spreadsheetbench/sample.yaml", overrides: { "train.num_epochs": 1 } };
const emptyBin = mkdtempSync(join(tmpdir(), "skillopt-nobin-"));
const saved = { PATH: process.env.PATH, SKILLOPT_NO_AUTO_INSTALL: process.env.SKILLOPT_NO_AUTO_INSTALL };

/** From here on this process finds no bwrap and may not install anything. */
function withoutPackages() {
  process.env.PATH = emptyBin;
  process.env.SKILLOPT_NO_AUTO_INSTALL = "1";
}

let db: Db;
beforeAll(async () => {
  db = (await freshDb("sqlite")).db;
  useAsDefaultDb(db);
  await getRunQueue().obliterate({ force: true });
});
afterEach(() => {
  process.env.PATH = saved.PATH;
  if (saved.SKILLOPT_NO_AUTO_INSTALL === undefined) delete process.env.SKILLOPT_NO_AUTO_INSTALL;
  else process.env.SKILLOPT_NO_AUTO_INSTALL = saved.SKILLOPT_NO_AUTO_INSTALL;
});
afterAll(async () => {
  await closeQueue();
  await db.$disconnect();
  rmSync(emptyBin, { recursive: true, force: true });
});

const NEEDS =
  /^SpreadsheetBench needs these system packages: (python3-openpyxl, )?bubblewrap — SKILLOPT_NO_AUTO_INSTALL is set\. Install them with: (sudo )?apt-get install -y (python3-openpyxl )?bubblewrap \(or set env\.allow_unsandboxed: true in a config file to run model-written code without a sandbox, on a machine you trust\)$/;

describe("SpreadsheetBench without its system packages", () => {
  it("the estimate answers 503 naming the packages and the command", async () => {
    withoutPackages();
    const res = await estimateRoute.POST(post("/api/runs/estimate", request));
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { message: string; field: string } };
    expect(body.error.field).toBe("env.name");
    expect(body.error.message).toMatch(NEEDS);
  });

  it("creating the run answers 503 too, and no run row exists afterwards", async () => {
    const before = await db.run.count();
    withoutPackages();
    const res = await runsRoute.POST(post("/api/runs", request));
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(NEEDS);
    expect(await db.run.count()).toBe(before);
  });

  it("a queued run whose packages went missing fails in the worker with that message, before any model call", async () => {
    const { id } = await createRunFromRequest(request, process.cwd()); // the packages are here for the tests
    withoutPackages();
    const worker = new Worker(
      QUEUES.optimizeRun,
      optimizeRunProcessor({
        workerId: "sysreq",
        rootDir: process.cwd(),
        shutdown: new AbortController().signal,
        staleAfterMs: 60_000,
        log: { info: () => {}, warn: () => {} },
        publish: () => {},
      }),
      { connection: redisOptions() },
    );
    try {
      for (let i = 0; i < 600 && (await findRun(id))?.status !== "failed"; i++)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.close();
    }
    const run = (await findRun(id))!;
    expect(run.status).toBe("failed");
    expect(run.errorMessage).toMatch(NEEDS);
    expect(run.calls).toBe(0);
  });
});

import { randomUUID } from "node:crypto";
import { Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as backendsRoute from "../../app/api/backends/route";
import * as presetsRoute from "../../app/api/presets/route";
import * as runRoute from "../../app/api/runs/[runId]/route";
import * as eventsRoute from "../../app/api/runs/[runId]/events/route";
import * as exportRoute from "../../app/api/runs/[runId]/export/route";
import * as stepRoute from "../../app/api/runs/[runId]/steps/[step]/route";
import * as compareRoute from "../../app/api/runs/compare/route";
import * as estimateRoute from "../../app/api/runs/estimate/route";
import * as runsRoute from "../../app/api/runs/route";
import type { Db } from "../../lib/db/client";
import { findRun } from "../../lib/db/runs";
import { QUEUES, redisOptions } from "../../lib/queue";
import { closeQueue, getRunQueue } from "../../lib/queue/producer";
import { optimizeRunProcessor } from "../../worker/processors/optimize-run";
import { freshDb, useAsDefaultDb } from "../helpers/db";

const base = "http://127.0.0.1:7860";
const post = (path: string, body: unknown) =>
  new Request(`${base}${path}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

let db: Db;
let worker: Worker;
let runId: string;

beforeAll(async () => {
  db = (await freshDb("sqlite")).db;
  useAsDefaultDb(db);
  await getRunQueue().obliterate({ force: true });
  worker = new Worker(
    QUEUES.optimizeRun,
    optimizeRunProcessor({
      workerId: "routes",
      rootDir: process.cwd(),
      shutdown: new AbortController().signal,
      staleAfterMs: 60_000,
      log: { info: () => {}, warn: () => {} },
      publish: () => {},
    }),
    { connection: redisOptions() },
  );
});
afterAll(async () => {
  await worker.close();
  await closeQueue();
  await db.$disconnect();
});

describe("POST /api/runs", () => {
  it("creates a run, queues it, and the worker trains it", async () => {
    const res = await runsRoute.POST(
      post("/api/runs", { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 1 }, name: "route test" }),
    );
    expect(res.status).toBe(201);
    runId = ((await res.json()) as { id: string }).id;
    for (let i = 0; i < 300 && (await findRun(runId))?.status !== "succeeded"; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await findRun(runId))!.status).toBe("succeeded");
  });

  it.each([
    [{ preset: "searchqa/sample.yaml", overrides: { "train.batch_size": "abc" } }, "train.batch_size"],
    [{ preset: "searchqa/sample.yaml", overrides: { "gradient.merge_batch_size": 1 } }, "gradient.merge_batch_size"],
    [{ preset: "searchqa/sample.yaml", overrides: { "Train.Batch": 1 } }, "overrides.Train.Batch"],
    [{ preset: "nope/missing.yaml" }, "preset"],
    [{ preset: "../../etc/passwd.yaml" }, "preset"],
    [{ preset: "searchqa/sample.yaml", skill: "x".repeat(210 * 1024) }, "skill"],
    [{ preset: "searchqa/sample.yaml", overrides: { "model.target_backend": "openai" } }, "model.target_backend"],
    [{ preset: "searchqa/sample.yaml", overrides: { "train.train_size": 7 } }, "train.train_size"],
  ])("422 names the field: %j", async (body, field) => {
    const before = await db.run.count();
    const res = await runsRoute.POST(post("/api/runs", body));
    expect(res.status).toBe(422);
    const json = (await res.json()) as { error: { field?: string; message: string } };
    expect(json.error.field).toBe(field);
    expect(json.error.message.length).toBeGreaterThan(5);
    expect(json.error.message).not.toContain("--cfg-options");
    expect(await db.run.count()).toBe(before);
  });

  it("malformed JSON is a 422, not a crash", async () => {
    const res = await runsRoute.POST(post("/api/runs", "{not json"));
    expect(res.status).toBe(422);
  });
});

describe("reading runs", () => {
  it("lists runs with filters", async () => {
    const res = await runsRoute.GET(new Request(`${base}/api/runs?status=succeeded&env=searchqa`));
    const json = (await res.json()) as { runs: Array<{ id: string }>; envs: string[] };
    expect(json.runs.map((r) => r.id)).toContain(runId);
    expect(json.envs).toEqual(["searchqa"]);
    expect((await runsRoute.GET(new Request(`${base}/api/runs?status=bogus`))).status).toBe(422);
  });

  it("returns the detail, 404 for an unknown id and 422 for a malformed one", async () => {
    const ok = await runRoute.GET(new Request(`${base}/api/runs/${runId}`), params({ runId }));
    expect(ok.status).toBe(200);
    const detail = (await ok.json()) as { steps: Array<{ step: number }>; config: { env: { name: string } } };
    expect(detail.config.env.name).toBe("searchqa");
    expect((await runRoute.GET(new Request(`${base}/x`), params({ runId: randomUUID() }))).status).toBe(404);
    expect((await runRoute.GET(new Request(`${base}/x`), params({ runId: "1; drop table" }))).status).toBe(422);
    const step = await stepRoute.GET(new Request(`${base}/x`), params({ runId, step: String(detail.steps[0]!.step) }));
    expect(step.status).toBe(200);
    expect((await stepRoute.GET(new Request(`${base}/x`), params({ runId, step: "999" }))).status).toBe(404);
    expect((await stepRoute.GET(new Request(`${base}/x`), params({ runId, step: "abc" }))).status).toBe(422);
  });

  it("cancel on a finished run is a 409; resume of a succeeded run too", async () => {
    const req = (action: string) => new Request(`${base}/x`, { method: "PATCH", body: JSON.stringify({ action }) });
    expect((await runRoute.PATCH(req("cancel"), params({ runId }))).status).toBe(409);
    expect((await runRoute.PATCH(req("resume"), params({ runId }))).status).toBe(409);
    expect((await runRoute.PATCH(req("explode"), params({ runId }))).status).toBe(422);
  });

  it("resumes a budget-exhausted run with a raised budget; other resumes are 409s", async () => {
    const src = await db.run.findUniqueOrThrow({ where: { id: runId } });
    const paused = await db.run.create({
      data: {
        ...src,
        id: randomUUID(),
        status: "budget_exhausted",
        errorMessage: "budget exhausted: 10 of 10 calls",
        lastEventSeq: 0,
      },
    });
    const req = (body: unknown) => new Request(`${base}/x`, { method: "PATCH", body: JSON.stringify(body) });
    const bad = await runRoute.PATCH(
      req({ action: "resume", budget: { max_calls: -1 } }),
      params({ runId: paused.id }),
    );
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe("budget.max_calls");
    const ok = await runRoute.PATCH(
      req({ action: "resume", budget: { max_usd: null, max_calls: 5000 } }),
      params({ runId: paused.id }),
    );
    expect(ok.status).toBe(200);
    const after = await db.run.findUniqueOrThrow({ where: { id: paused.id } });
    expect(after.status).toBe("queued");
    expect(JSON.parse(after.configJson).budget).toEqual({ max_usd: null, max_calls: 5000 });
    await runRoute.PATCH(req({ action: "cancel" }), params({ runId: paused.id }));
  });

  it("exports the best skill bytes, a zip bundle, and 409 before a best skill exists", async () => {
    const skill = await exportRoute.GET(new Request(`${base}/x?what=skill`), params({ runId }));
    expect(skill.headers.get("content-disposition")).toContain("best_skill.md");
    const cp = await db.checkpoint.findUnique({ where: { runId_key: { runId, key: "best_skill.md" } } });
    expect(await skill.text()).toBe(cp!.value);
    const zip = await exportRoute.GET(new Request(`${base}/x?what=bundle`), params({ runId }));
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const queued = await db.run.create({
      data: {
        ...(await db.run.findUniqueOrThrow({ where: { id: runId } })),
        id: randomUUID(),
        status: "queued",
        lastEventSeq: 0,
      },
    });
    const early = await exportRoute.GET(new Request(`${base}/x?what=skill`), params({ runId: queued.id }));
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { message: string } }).error.message).toMatch(/no best skill yet/i);
  });

  it("streams the stored events over SSE and ends for a finished run", async () => {
    const res = await eventsRoute.GET(
      new Request(`${base}/x`, { headers: { "last-event-id": "3" } }),
      params({ runId }),
    );
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids[0]).toBe(4);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(text).toContain('"type":"runCompleted"');
    expect(text.trimEnd().endsWith("data: {}")).toBe(true);
    expect((await eventsRoute.GET(new Request(`${base}/x`), params({ runId: randomUUID() }))).status).toBe(404);
  });

  it("compare needs two runs", async () => {
    expect((await compareRoute.GET(new Request(`${base}/x?ids=${runId}`))).status).toBe(422);
  });
});

describe("form support", () => {
  it("lists presets with their seed skill, and backends with sim always available", async () => {
    const presets = (await (await presetsRoute.GET()).json()) as {
      presets: Array<{ path: string; initialSkill: string; simulated: boolean }>;
    };
    const sample = presets.presets.find((p) => p.path === "searchqa/sample.yaml")!;
    expect(sample.simulated).toBe(true);
    expect(sample.initialSkill).toContain("# ");
    const backends = (await (await backendsRoute.GET()).json()) as {
      backends: Array<{ name: string; available: boolean; note: string }>;
    };
    expect(backends.backends.find((b) => b.name === "sim")).toMatchObject({
      available: true,
      note: "Simulated model — scores are synthetic",
    });
  });

  it("estimates calls and tokens per phase before launch", async () => {
    const res = await estimateRoute.POST(
      post("/api/runs/estimate", { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 2 } }),
    );
    const est = (await res.json()) as {
      totalCalls: number;
      costUsd: number | null;
      phases: Array<{ phase: string; calls: number }>;
    };
    expect(est.phases.find((p) => p.phase === "train rollouts")!.calls).toBe(60);
    expect(est.costUsd).toBe(0);
    expect(est.totalCalls).toBeGreaterThan(100);
  });
});

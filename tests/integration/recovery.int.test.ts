/**
 * Recovery without a person, with real processes: worker processes SIGKILLed and SIGTERMed mid-run, a
 * private redis-server killed and restarted empty, on a private SQLite file (the default and the hardest
 * database for this). Nothing here loads a page: every recovery must happen by itself.
 */
import { describe, expect, it } from "vitest";
import * as compareRoute from "../../app/api/runs/compare/route";
import * as runRoute from "../../app/api/runs/[runId]/route";
import * as runsRoute from "../../app/api/runs/route";
import type { CompareResponse, RunDetail, RunListResponse } from "../../lib/contracts/api";
import { COMMIT_POINT_TYPES, STEP_EVENT_TYPES } from "../../lib/contracts/events";
import { holdMessage } from "../../lib/contracts/run-recovery";
import { sumUsage } from "../../lib/contracts/usage-totals";
import { createRun, findRun } from "../../lib/db/runs";
import { listEventsAfter } from "../../lib/db/engine-events";
import { markWorkerLost } from "../../lib/db/run-recovery";
import { getRunQueue, listRunsWithLiveJobs } from "../../lib/queue/producer";
import { createRunFromRequest, validateRunRequest } from "../../lib/runs/create";
import { reconcileOnce } from "../../worker/reconcile";
import { until, type WorkerProcess } from "../helpers/processes";
import { useStack } from "../helpers/stack";

const SAMPLE = "searchqa/sample.yaml";
const quiet = { info: () => {}, warn: () => {} };
const stack = useStack({ redis: true, defaultDb: true });
const worker = (id: string, env: Record<string, string> = {}) => stack.worker(id, env);

async function newRun(overrides: Record<string, number | string>, name: string): Promise<string> {
  return (await createRunFromRequest({ preset: SAMPLE, overrides, name }, process.cwd())).id;
}

/** Stored memo rows: they only grow when new work is done (a replay from memos adds none). */
async function progress(runId: string): Promise<number> {
  return (
    (await stack.db.checkpoint.count({ where: { runId } })) + (await stack.db.checkpointRow.count({ where: { runId } }))
  );
}

const waitStatus = (id: string, status: string, ms = 150_000) =>
  until(
    () => findRun(id),
    (r) => r?.status === status,
    ms,
    `run ${id} to be ${status}`,
  );
const eventTypes = async (runId: string) =>
  (await stack.db.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((e) => e.type);
const bestSkill = async (runId: string) =>
  (await stack.db.checkpoint.findUnique({ where: { runId_key: { runId, key: "best_skill.md" } } }))?.value;

/** Waits until `w` owns the run and made `minNew` new memo rows after its claim (and `minSteps` steps), then kills it. */
async function killAfterProgress(
  w: WorkerProcess,
  runId: string,
  opts: { minSteps?: number; signal?: NodeJS.Signals } = {},
): Promise<void> {
  await until(
    () => findRun(runId),
    (r) => r?.workerId === w.id && r.status === "running",
    120_000,
    `run claimed by ${w.id}`,
  );
  const base = await progress(runId);
  await until(
    async () => ({ p: await progress(runId), steps: (await findRun(runId))!.stepsDone }),
    (v) => v.p >= base + 3 && v.steps >= (opts.minSteps ?? 0),
    120_000,
    "progress",
  );
  await w.kill(opts.signal ?? "SIGKILL");
}

describe("recovery without a person (SQLite, real worker processes)", () => {
  it("(g) two reconcilers at once queue a lost or job-less run exactly once", async () => {
    const v = await validateRunRequest({ preset: SAMPLE, overrides: {} }, process.cwd());
    const base = {
      name: "reconcile race",
      config: v.prepared.config,
      sourceYaml: v.resolvedYaml,
      seedSkill: v.prepared.initialSkill,
      optimizerBackend: "sim",
      targetBackend: "sim",
      simulated: true,
      stepsTotal: 9,
    };
    const queued = await createRun({ ...base, id: crypto.randomUUID() });
    const lost = await createRun({ ...base, id: crypto.randomUUID() });
    await stack.db.run.update({
      where: { id: lost.id },
      data: { status: "running", workerId: "ghost", heartbeatAt: new Date(Date.now() - 60_000), startedAt: new Date() },
    });
    const deps = { queue: getRunQueue(), staleAfterMs: 5_000, maxAutoRestarts: 5, log: quiet, graceMs: 0 };
    await Promise.all([reconcileOnce(deps), reconcileOnce(deps)]);
    await reconcileOnce(deps); // a third pass finds both with a job: nothing more
    const jobs = await getRunQueue().getJobs(["waiting"]);
    for (const id of [queued.id, lost.id]) {
      expect(jobs.filter((j) => (j.data as { runId: string }).runId === id).map((j) => j.id)).toEqual([`${id}-j1`]);
      expect(await findRun(id)).toMatchObject({ status: "queued", jobGen: 1 });
    }
    expect((await findRun(lost.id))!.autoRestarts).toBe(1);
    expect((await eventTypes(lost.id)).filter((t) => t === "workerLost" || t === "runQueued")).toEqual([
      "workerLost",
      "runQueued",
    ]);
    // Out of the way of the workers the next tests start.
    await stack.db.run.updateMany({ where: { id: { in: [queued.id, lost.id] } }, data: { status: "cancelled" } });
    await getRunQueue().obliterate({ force: true });
  });

  it("(i) Resume works on a run whose worker died (stale heartbeat, no page load), and a second click adds no job", async () => {
    const v = await validateRunRequest({ preset: SAMPLE, overrides: {} }, process.cwd());
    const id = crypto.randomUUID();
    await createRun({
      id,
      name: "stale owner",
      config: v.prepared.config,
      sourceYaml: v.resolvedYaml,
      seedSkill: v.prepared.initialSkill,
      optimizerBackend: "sim",
      targetBackend: "sim",
      simulated: true,
      stepsTotal: 9,
    });
    await stack.db.run.update({
      where: { id },
      data: { status: "running", workerId: "dead", heartbeatAt: new Date(Date.now() - 120_000), startedAt: new Date() },
    });
    const first = await runRoute.PATCH(patch(id, { action: "resume" }), params(id));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: "queued", queued: true });
    const second = await runRoute.PATCH(patch(id, { action: "resume" }), params(id));
    expect(await second.json()).toEqual({ status: "queued", queued: true });
    expect(await eventTypes(id)).toEqual(["workerLost", "runResumeRequested"]);
    expect(
      (await getRunQueue().getJobs(["waiting"]))
        .filter((j) => (j.data as { runId: string }).runId === id)
        .map((j) => j.id),
    ).toEqual([`${id}-j1`]);
    await stack.db.run.update({ where: { id }, data: { status: "cancelled" } });
    await getRunQueue().obliterate({ force: true });
  });

  it("(h) a failed run's error reaches the API as one line, without a Prisma dump or server paths", async () => {
    const v = await validateRunRequest({ preset: SAMPLE, overrides: {} }, process.cwd());
    const id = crypto.randomUUID();
    await createRun({
      id,
      name: "failed with a dump",
      config: v.prepared.config,
      sourceYaml: v.resolvedYaml,
      seedSkill: v.prepared.initialSkill,
      optimizerBackend: "sim",
      targetBackend: "sim",
      simulated: true,
      stepsTotal: 9,
    });
    // What an older build stored: Prisma's whole invocation dump.
    const dump = `\nInvalid \`tx.runEvent.create()\` invocation in\n${process.cwd()}/lib/db/engine-events.ts:204:26\n\n  201 \n→ 204     await tx.runEvent.create(\nOperation has timed out`;
    await stack.db.run.update({ where: { id }, data: { status: "failed", errorMessage: dump } });
    const detail = (await (await runRoute.GET(new Request(`${base}/api/runs/${id}`), params(id))).json()) as {
      errorMessage: string;
    };
    const list = (await (await runsRoute.GET(new Request(`${base}/api/runs?status=failed`))).json()) as {
      runs: { id: string; errorMessage: string }[];
    };
    for (const shown of [detail.errorMessage, list.runs.find((r) => r.id === id)!.errorMessage]) {
      expect(shown).toBe("database error: Operation has timed out");
    }
  });

  let victim = "";
  it("(a) SIGKILL the worker 5 times in one run: it finishes by itself with the best skill of an uninterrupted run", async () => {
    const overrides = { "train.num_epochs": 2, "model.sim_latency_ms": 20 };
    let w = worker("a0");
    await w.ready;
    const reference = await newRun(overrides, "uninterrupted");
    await waitStatus(reference, "succeeded");
    victim = await newRun(overrides, "killed five times");
    for (let i = 0; i < 5; i++) {
      await killAfterProgress(w, victim, { minSteps: i });
      w = worker(`a${i + 1}`);
    }
    const run = await waitStatus(victim, "succeeded", 240_000);
    await w.kill("SIGTERM");
    expect(run).toMatchObject({ workerId: "a5", autoRestarts: 5, stepsDone: 6 });
    expect(await bestSkill(victim)).toBe(await bestSkill(reference));
    expect(await stack.db.step.count({ where: { runId: victim } })).toBe(6);
    // The read model's totals are the usage rows' sum, and no call a checkpoint kept is lost to a SIGKILL:
    // the row and every surface that shows it (API run detail, runs list, compare).
    const list = (await (await runsRoute.GET(new Request(`${base}/api/runs?limit=1000`))).json()) as RunListResponse;
    const cmp = (await (
      await compareRoute.GET(new Request(`${base}/api/runs/compare?ids=${reference},${victim}`))
    ).json()) as CompareResponse;
    for (const id of [reference, victim]) {
      const sum = sumUsage(await stack.db.llmUsage.findMany({ where: { runId: id } }));
      const detail = (await (
        await runRoute.GET(new Request(`${base}/api/runs/${id}`), params(id))
      ).json()) as RunDetail;
      const surfaces = {
        row: (await findRun(id))!,
        detail,
        list: list.runs.find((r) => r.id === id)!,
        cmp: cmp.runs.find((r) => r.id === id)!,
      };
      for (const [name, r] of Object.entries(surfaces))
        expect(
          { calls: r.calls, promptTokens: r.promptTokens, completionTokens: r.completionTokens },
          `${name} of ${id}`,
        ).toEqual({
          calls: sum.calls,
          promptTokens: sum.promptTokens,
          completionTokens: sum.completionTokens,
        });
    }
    expect((await findRun(victim))!.calls).toBeGreaterThanOrEqual((await findRun(reference))!.calls);
  }, 600_000);

  it("(e) a resumed run logs workerLost and runResumed, and its log has every step event once", async () => {
    expect(victim).not.toBe("");
    const types = await eventTypes(victim);
    expect(types.filter((t) => t === "workerLost")).toHaveLength(5);
    expect(types.filter((t) => t === "runResumed")).toHaveLength(5);
    expect(types.filter((t) => t === "runClaimed")).toHaveLength(6);
    const log = await listEventsAfter(victim, 0, 100_000);
    const seen = new Set<string>();
    for (const e of log) {
      const p = JSON.parse(e.payload) as { step?: number; epoch?: number; which?: string };
      if (![...STEP_EVENT_TYPES, ...COMMIT_POINT_TYPES, "testScored"].includes(e.type as never)) continue;
      const key = `${e.type}:${p.step ?? ""}:${p.epoch ?? ""}:${p.which ?? ""}`;
      expect(seen.has(key), `${key} appears twice in the log`).toBe(false);
      seen.add(key);
    }
    expect(log.filter((e) => e.type === "stepCommitted")).toHaveLength(6);
    // The kills landed mid-step: the interrupted attempts' partial steps were there to be superseded.
    expect(await stack.db.runEvent.count({ where: { runId: victim, superseded: true } })).toBeGreaterThan(0);
    expect(log.filter((e) => e.type === "testScored")).toHaveLength(3);
    expect(log.map((e) => e.seq)).toEqual([...log.map((e) => e.seq)].sort((a, b) => a - b));
  });

  it("(b) a stalled job interrupts and requeues its run at once; past the limit it waits for Resume, which finishes it", async () => {
    const limit = { SKILLOPT_MAX_AUTO_RESTARTS: "1" };
    const w1 = worker("b1", limit);
    await w1.ready;
    const id = await newRun({ "train.num_epochs": 2, "model.sim_latency_ms": 20 }, "stalled twice");
    await killAfterProgress(w1, id);
    const killedAt = Date.now();
    const w2 = worker("b2", limit);
    await until(
      () => findRun(id),
      (r) => r?.workerId === "b2" && r.status === "running",
      60_000,
      "automatic restart on b2",
    );
    expect(Date.now() - killedAt).toBeLessThan(45_000);
    const lost = (await stack.db.runEvent.findMany({ where: { runId: id, type: "workerLost" } })).map(
      (e) => JSON.parse(e.payload) as { detectedBy: string; workerId: string },
    );
    // Whichever recovery path notices first — BullMQ failing the stalled job, or b2's start-up reconcile seeing a
    // stale heartbeat and no job (it wins on a loaded machine) — the run is lost exactly once and restarted.
    expect(lost).toEqual([
      expect.objectContaining({
        workerId: "b1",
        detectedBy: expect.stringMatching(/stalled more than allowable limit|^reconcile: no heartbeat/),
      }),
    ]);
    const requeued = await stack.db.runEvent.findFirst({ where: { runId: id, type: "runQueued" } });
    expect(JSON.parse(requeued!.payload)).toMatchObject({ autoRestart: { count: 1, limit: 1 } });

    await killAfterProgress(w2, id);
    const w3 = worker("b3", limit);
    const held = await until(
      () => findRun(id),
      (r) => r?.status === "interrupted" && r.errorMessage !== null,
      60_000,
      "the hold",
    );
    expect(held!.errorMessage).toBe(holdMessage(1));
    await new Promise((r) => setTimeout(r, 4_000));
    expect((await findRun(id))!.status).toBe("interrupted");
    expect((await listRunsWithLiveJobs()).has(id)).toBe(false);
    expect(await eventTypes(id)).toContain("runInterrupted");

    const res = await runRoute.PATCH(patch(id, { action: "resume" }), params(id));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "queued", queued: true });
    const done = await waitStatus(id, "succeeded");
    expect(done).toMatchObject({ workerId: "b3", autoRestarts: 0, stepsDone: 6 });
    await w3.kill("SIGTERM");
  }, 600_000);

  it("(f) SIGTERM mid-run requeues the run as a shutdown (never runCancelled) and the next worker finishes it", async () => {
    const a = worker("f1");
    await a.ready;
    const id = await newRun({ "train.num_epochs": 1, "model.sim_latency_ms": 20 }, "shut down mid-run");
    const t0 = Date.now();
    await killAfterProgress(a, id, { minSteps: 1, signal: "SIGTERM" });
    expect(Date.now() - t0).toBeLessThan(120_000);
    const after = await findRun(id);
    expect(after!.status).toBe("queued");
    let types = await eventTypes(id);
    expect(types).not.toContain("runCancelled");
    expect(types.filter((t) => t === "runClaimed")).toHaveLength(1); // the stopping worker did not take it back
    const shutdownEvent = await stack.db.runEvent.findFirst({
      where: { runId: id, type: "runQueued" },
      orderBy: { seq: "desc" },
    });
    expect(JSON.parse(shutdownEvent!.payload).reason).toMatch(/^worker shut down/);
    const b = worker("f2");
    expect(await waitStatus(id, "succeeded")).toMatchObject({ workerId: "f2", autoRestarts: 0 });
    types = await eventTypes(id);
    expect(types).not.toContain("runCancelled");
    expect(types).toContain("runResumed");
    await b.kill("SIGTERM");
  }, 300_000);

  it("(h) a run declared lost while its worker was alive (a dashboard saw its heartbeat lapse) restarts at once", async () => {
    // No periodic pass within the test: the worker that gave the run up must queue it again itself.
    const w = worker("h1", { SKILLOPT_RECONCILE_MS: "600000" });
    await w.ready;
    const id = await newRun({ "train.num_epochs": 2 }, "declared lost while alive");
    await until(
      () => findRun(id),
      (r) => r?.workerId === "h1" && r.status === "running" && r.stepsDone >= 1,
      120_000,
      "run running with a committed step",
    );
    // What the dashboard does when it sees no heartbeat for SKILLOPT_STALE_AFTER_MS (here: any age at all).
    await until(
      () => markWorkerLost(id, { staleAfterMs: 0, detectedBy: "test: the dashboard saw no heartbeat" }),
      (r) => r === "interrupted",
      10_000,
      "run marked interrupted",
    );
    const t0 = Date.now();
    const restarted = await until(
      () => findRun(id),
      (r) => r?.status === "running" && r.autoRestarts === 1,
      20_000,
      "run restarted by its own worker",
    );
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(restarted!.workerId).toBe("h1");
    expect(await waitStatus(id, "succeeded")).toMatchObject({ autoRestarts: 1 });
    const types = await eventTypes(id);
    expect(types.filter((t) => t === "workerLost")).toHaveLength(1);
    expect(types.filter((t) => t === "runClaimed")).toHaveLength(2);
    expect(w.log()).toMatch(/lost its run/);
    expect(w.log()).not.toContain("reconcile (periodic)");
    await w.kill("SIGTERM");
  }, 300_000);

  it("(c) Redis killed and restarted empty: every queued run still runs, without restarting the worker", async () => {
    // No periodic pass within the test: the reconnect itself must trigger the reconcile.
    const w = worker("c1", { WORKER_CONCURRENCY: "1", SKILLOPT_RECONCILE_MS: "600000" });
    await w.ready;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await newRun({ "train.num_epochs": 1 }, `redis restart ${i}`));
    await until(
      async () => Promise.all(ids.map(async (id) => (await findRun(id))!.status)),
      (s) => s.filter((x) => x === "running").length === 1,
      60_000,
      "one running",
    );
    await stack.redis.kill();
    await new Promise((r) => setTimeout(r, 1_000));
    await stack.redis.start();
    for (const id of ids) await waitStatus(id, "succeeded", 240_000);
    expect(w.log()).not.toContain("exited");
    for (const id of ids) expect((await eventTypes(id)).filter((t) => t === "runClaimed")).toHaveLength(1);
    // The periodic pass is 10 minutes away: the reconnect pass (or its re-check of just-queued runs) did it.
    expect(w.log()).toContain("reconcile (Redis reconnected)");
    expect(w.log()).not.toContain("reconcile (periodic)");
    expect(w.log().match(/queued again \(it had no job\)/g)?.length).toBeGreaterThanOrEqual(1);
    await w.kill("SIGTERM");
  }, 600_000);

  it("(d) with Redis down, creating and resuming answer within 5 s; a retried create makes no second run", async () => {
    const w = worker("d1", { SKILLOPT_RECONCILE_MS: "600000" });
    await w.ready;
    await stack.redis.kill();
    const key = `retry-${crypto.randomUUID()}`;
    const body = { preset: SAMPLE, overrides: { "train.num_epochs": 1 }, name: "created while Redis is down" };
    const timed = async (req: () => Promise<Response>) => {
      const t = Date.now();
      const res = await req();
      return { res, ms: Date.now() - t, json: (await res.json()) as { id: string; queued: boolean } };
    };
    const first = await timed(() => runsRoute.POST(post("/api/runs", body, key)));
    expect(first.ms).toBeLessThan(5_000);
    expect(first.res.status).toBe(202);
    expect(first.json.queued).toBe(false);
    const retry = await timed(() => runsRoute.POST(post("/api/runs", body, key)));
    expect(retry.ms).toBeLessThan(5_000);
    expect(retry.res.status).toBe(200);
    expect(retry.json.id).toBe(first.json.id);
    expect(await stack.db.run.count({ where: { name: body.name } })).toBe(1);
    const other = await timed(() =>
      runsRoute.POST(post("/api/runs", { ...body, name: "resumed while Redis is down" })),
    );
    await stack.db.run.update({ where: { id: other.json.id }, data: { status: "failed", errorMessage: "boom" } });
    const resumed = await timed(() =>
      runRoute.PATCH(patch(other.json.id, { action: "resume" }), params(other.json.id)),
    );
    expect(resumed.ms).toBeLessThan(5_000);
    expect(resumed.res.status).toBe(202);

    await stack.redis.start();
    for (const id of [first.json.id, other.json.id]) {
      await waitStatus(id, "succeeded", 240_000);
      expect((await eventTypes(id)).filter((t) => t === "runClaimed")).toHaveLength(1);
    }
    await w.kill("SIGTERM");
  }, 600_000);
});

const base = "http://127.0.0.1:7860";
function post(path: string, body: unknown, idempotencyKey?: string): Request {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
  return new Request(`${base}${path}`, { method: "POST", body: JSON.stringify(body), headers });
}
const patch = (id: string, body: unknown) =>
  new Request(`${base}/api/runs/${id}`, {
    method: "PATCH",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
const params = (runId: string) => ({ params: Promise.resolve({ runId }) });

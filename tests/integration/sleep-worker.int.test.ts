import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker, type Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SleepProjectInputSchema } from "../../lib/contracts/sleep";
import type { Db } from "../../lib/db/client";
import { createQueuedNight, getNight, listGateRows, listNights } from "../../lib/db/sleep-nights";
import { createSleepProject } from "../../lib/db/sleep-projects";
import { redisOptions } from "../../lib/queue";
import { SLEEP_JOBS, SLEEP_QUEUE } from "../../lib/queue/contracts";
import {
  closeSleepQueue,
  enqueueSleepNight,
  getSleepQueue,
  reconcileSleepSchedules,
  sleepSchedulerId,
  syncSleepSchedule,
} from "../../lib/queue/sleep";
import { makeTasksPayload, writeTasksFile } from "../../lib/sleep";
import { PERSONAS } from "../../lib/sleep/experiment/personas";
import { stagingRoot } from "../../lib/sleep/staging/root";
import { removeTempDirs, sandbox } from "../../lib/sleep/test-helpers";
import { onSleepJobFailed } from "../../worker/handlers/sleep-night";
import { sleepNightProcessor } from "../../worker/processors/sleep-night";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";

const quiet = { info: () => {}, warn: () => {} };
/** A scheduled firing's job as the processor sees it (BullMQ's Job, reduced to what it touches). */
const scheduledJob = (projectId: string) =>
  ({ name: SLEEP_JOBS.scheduled, data: { projectId }, id: "x", updateData: async () => {} }) as unknown as Job;
afterAll(removeTempDirs);

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A project folder with a tasks file of the researcher persona (mock backend) and an isolated agent home. */
async function newProject(db: Db, extra: Record<string, unknown> = {}) {
  const s = sandbox();
  const tasksFile = writeTasksFile(
    join(s.root, "tasks.json"),
    makeTasksPayload(PERSONAS.researcher(), {
      project: s.project,
      transcriptSource: "claude",
      nSessions: 0,
      targetSkillPath: "",
    }),
  );
  const input = SleepProjectInputSchema.parse({
    name: "w",
    directory: s.project,
    transcriptHome: join(s.home, ".claude"),
    tasksFile,
    ...extra,
  });
  return { s, project: await createSleepProject(input, { db }) };
}

describe.each(PROVIDERS)("Sleep nights through the queue and the worker (%s)", (provider) => {
  let db: Db;
  let worker: Worker;
  let home: string;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
    home = sandbox().home;
    await getSleepQueue().obliterate({ force: true });
    worker = new Worker(SLEEP_QUEUE, sleepNightProcessor({ log: quiet, home }), {
      connection: redisOptions(),
      concurrency: 1,
    });
  });
  afterAll(async () => {
    await worker?.close();
    await closeSleepQueue();
    await db?.$disconnect();
  });

  it("Run now: a queued night is run by the worker and staged, with its gate rows", async () => {
    const { s, project } = await newProject(db);
    const night = await createQueuedNight(
      { projectId: project.id, projectDir: s.project, trigger: "manual", dryRun: false },
      { db },
    );
    await enqueueSleepNight(night.id);
    const done = await until(
      () => getNight(night.id, { db }),
      (n) => !["queued", "running"].includes(n.status),
    );
    expect(done).toMatchObject({
      status: "staged",
      accepted: true,
      gateAction: "accept_new_best",
      backend: "mock",
      night: 1,
    });
    expect(existsSync(join(done.stagingDir, "proposed_SKILL.md"))).toBe(true);
    expect((await listGateRows(night.id, { db })).some((g) => g.status === "improved")).toBe(true);
  });

  it("Dry run: nothing is staged", async () => {
    const { s, project } = await newProject(db);
    const night = await createQueuedNight(
      { projectId: project.id, projectDir: s.project, trigger: "manual", dryRun: true },
      { db },
    );
    await enqueueSleepNight(night.id);
    const done = await until(
      () => getNight(night.id, { db }),
      (n) => !["queued", "running"].includes(n.status),
    );
    expect(done).toMatchObject({ status: "dry_run", stagingDir: "", dryRun: true });
    expect(existsSync(stagingRoot(s.project))).toBe(false);
  });

  it("a scheduled firing creates and runs its own night; a bad project fails it with the reason", async () => {
    const { project } = await newProject(db);
    const run = sleepNightProcessor({ log: quiet, home });
    expect(await run(scheduledJob(project.id))).toBe("disabled");
    await db.sleepProject.update({ where: { id: project.id }, data: { enabled: true, cronPattern: "0 3 * * *" } });
    expect(await run(scheduledJob(project.id))).toBe("done");
    expect((await listNights({ projectId: project.id }, { db }))[0]).toMatchObject({
      trigger: "schedule",
      status: "staged",
    });
    const bad = await newProject(db, { tasksFile: "/nonexistent/tasks.json" });
    const n = await createQueuedNight(
      { projectId: bad.project.id, projectDir: bad.s.project, trigger: "manual", dryRun: false },
      { db },
    );
    await expect(run({ name: SLEEP_JOBS.run, data: { nightId: n.id }, id: "y" } as Job)).rejects.toThrow(/tasks\.json/);
    expect((await getNight(n.id, { db })).status).toBe("failed");
    await expect(run({ name: SLEEP_JOBS.run, data: { nightId: "not-an-id" }, id: "z" } as Job)).rejects.toThrow(
      /invalid payload/,
    );
    await expect(run({ name: "other", data: {}, id: "z" } as Job)).rejects.toThrow(/unknown Sleep job/);
  });

  it("a scheduled firing's job names its night, so a worker that dies mid-night leaves it failed, not running", async () => {
    const { project } = await newProject(db);
    await db.sleepProject.update({ where: { id: project.id }, data: { enabled: true, cronPattern: "0 3 * * *" } });
    const written: Record<string, unknown>[] = [];
    const job = {
      name: SLEEP_JOBS.scheduled,
      data: { projectId: project.id },
      id: "s1",
      updateData: async (d: Record<string, unknown>) => void written.push(d),
    } as unknown as Job;
    expect(await sleepNightProcessor({ log: quiet, home })(job)).toBe("done");
    const [night] = await listNights({ projectId: project.id }, { db });
    expect(written).toEqual([{ projectId: project.id, nightId: night!.id }]);

    // What BullMQ hands the next worker when the first died: the stalled job's last data and its error.
    const { s } = await newProject(db);
    const running = await createQueuedNight(
      { projectId: project.id, projectDir: s.project, trigger: "schedule", dryRun: false },
      { db },
    );
    await db.sleepNight.update({ where: { id: running.id }, data: { status: "running" } });
    const stalled = new Error("job stalled more than allowable limit");
    await onSleepJobFailed({ projectId: project.id, nightId: running.id }, stalled, quiet);
    expect(await getNight(running.id, { db })).toMatchObject({ status: "failed" });
    expect((await getNight(running.id, { db })).error).toMatch(/worker stopped.*stalled/);
    // A finished night is never rewritten by a late failure, and a job without a night is only logged.
    await onSleepJobFailed({ nightId: night!.id }, stalled, quiet);
    expect((await getNight(night!.id, { db })).status).toBe("staged");
    await expect(onSleepJobFailed({ projectId: project.id }, stalled, quiet)).resolves.toBeUndefined();
  });

  it("job schedulers follow the projects: upserted with the cron pattern, removed when disabled, stale ones reconciled away", async () => {
    const queue = getSleepQueue();
    const a = { id: crypto.randomUUID(), cronPattern: "0 3 * * *", enabled: true };
    const stale = { id: crypto.randomUUID(), cronPattern: "15 2 * * *", enabled: true };
    expect(await syncSleepSchedule(a)).toBe("scheduled");
    await syncSleepSchedule(stale);
    expect(await queue.getJobScheduler(sleepSchedulerId(a.id))).toMatchObject({ pattern: "0 3 * * *" });
    await syncSleepSchedule({ ...a, cronPattern: "30 4 * * 1" });
    expect(await queue.getJobScheduler(sleepSchedulerId(a.id))).toMatchObject({ pattern: "30 4 * * 1" });
    const r = await reconcileSleepSchedules([{ id: a.id, cronPattern: "30 4 * * 1" }]);
    expect(r.removed).toBeGreaterThanOrEqual(1);
    expect(await queue.getJobScheduler(sleepSchedulerId(stale.id))).toBeFalsy();
    expect(await syncSleepSchedule({ ...a, enabled: false })).toBe("unscheduled");
    expect(await queue.getJobScheduler(sleepSchedulerId(a.id))).toBeFalsy();
  });
});

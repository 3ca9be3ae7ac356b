import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import {
  claimNight,
  createNightRecorder,
  createQueuedNight,
  getNight,
  listGateRows,
  listNights,
  markNightStatus,
} from "../../lib/db/sleep-nights";
import {
  createSleepProject,
  listScheduledSleepProjects,
  listSleepProjects,
  updateSleepProject,
} from "../../lib/db/sleep-projects";
import { SleepProjectInputSchema } from "../../lib/contracts/sleep";
import { runSleepCycle, type CycleDeps, type SleepConfig } from "../../lib/sleep";
import { PERSONAS } from "../../lib/sleep/experiment/personas";
import { assignSplits } from "../../lib/sleep/mine";
import { removeTempDirs, sandbox, testConfig } from "../../lib/sleep/test-helpers";
import { PROVIDERS, freshDb } from "../helpers/db";

afterAll(removeTempDirs);

const persona = () => assignSplits(PERSONAS.researcher(), { valFraction: 0.34, testFraction: 0, seed: 42 });

function deps(config: SleepConfig, recorder: CycleDeps["recorder"]): CycleDeps {
  let t = Date.UTC(2024, 4, 1, 3, 0, 0);
  return { config, now: () => (t += 1000), env: {}, harvest: async () => ({ digests: [], notes: [] }), recorder };
}

describe.each(PROVIDERS)("Sleep nights in the database (%s)", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
  });
  afterAll(async () => db?.$disconnect());

  it("a CLI night is recorded with its splits, scores, edits, gate rows and a redacted report, joined to its project", async () => {
    const s = sandbox();
    const project = await createSleepProject(SleepProjectInputSchema.parse({ name: "demo", directory: s.project }), {
      db,
    });
    const recorder = createNightRecorder({ db, trigger: "cli" });
    const out = await runSleepCycle(deps(testConfig(s), recorder), { seedTasks: persona() });
    const row = await getNight(recorder.nightId()!, { db });
    expect(row).toMatchObject({
      projectId: project.id,
      projectDir: s.project,
      trigger: "cli",
      status: "staged",
      night: 1,
      backend: "mock",
      accepted: true,
      gateAction: "accept_new_best",
      stagingDir: out.stagingDir,
    });
    expect(row.nTasks).toBe(out.report.nTasks);
    expect(row.nTrain + row.nVal + row.nTest).toBe(out.report.nTasks);
    expect(row.nVal).toBeGreaterThan(0);
    expect(row.candidateScore).toBeGreaterThan(row.baselineScore!);
    expect(row.editsAccepted).toBe(out.report.edits.length);
    const gates = await listGateRows(row.id, { db });
    const deltas = out.report.gateTrials.flatMap((t) => t.taskDeltas);
    expect(gates.map((g) => [g.taskId, g.status])).toEqual(deltas.map((d) => [d.taskId, d.status]));
    expect(gates.some((g) => g.status === "improved")).toBe(true);
    expect(JSON.parse(row.reportJson)).toMatchObject({ night: 1, accepted: true });
  });

  it("secrets in a failed night's message are redacted before they are written", async () => {
    const s = sandbox();
    const recorder = createNightRecorder({ db, trigger: "cli" });
    await recorder.started({ night: 3, project: s.project, dryRun: false, backend: "mock", startedAt: Date.now() });
    await recorder.failed({
      message: "backend said: api_key=sk-abcdefghijklmnopqrstuvwxyz0123456789",
      pending: false,
      endedAt: Date.now(),
    });
    const row = await getNight(recorder.nightId()!, { db });
    expect(row.status).toBe("failed");
    expect(row.error).not.toContain("sk-abcdefghijklmnopqrstuvwxyz0123456789");
    expect(row.projectId).toBeNull();
  });

  it("a handoff night re-run for each round of answers keeps one row", async () => {
    const s = sandbox();
    const first = createNightRecorder({ db, trigger: "cli" });
    await first.started({ night: 4, project: s.project, dryRun: false, backend: "handoff", startedAt: Date.now() });
    await first.failed({ message: "2 calls pending", pending: true, endedAt: Date.now() });
    expect((await getNight(first.nightId()!, { db })).status).toBe("handoff_pending");
    const second = createNightRecorder({ db, trigger: "cli" });
    await second.started({ night: 4, project: s.project, dryRun: false, backend: "handoff", startedAt: Date.now() });
    expect(second.nightId()).toBe(first.nightId());
    expect(await getNight(first.nightId()!, { db })).toMatchObject({ status: "running", error: "" });
    expect(await db.sleepNight.count({ where: { projectDir: s.project } })).toBe(1);
  });

  it("a queued night is claimed once, then moves through the allowed statuses only", async () => {
    const s = sandbox();
    const p = await createSleepProject(SleepProjectInputSchema.parse({ name: "q", directory: s.project }), { db });
    const n = await createQueuedNight(
      { projectId: p.id, projectDir: s.project, trigger: "manual", dryRun: true },
      { db },
    );
    expect(await claimNight(n.id, { db })).toBe(true);
    expect(await claimNight(n.id, { db })).toBe(false);
    await expect(markNightStatus(n.id, ["staged"], "adopted", { db })).rejects.toThrow(/is running, not staged/);
    await markNightStatus(n.id, ["running"], "staged", { db });
    await markNightStatus(n.id, ["staged"], "discarded", { db });
    expect((await getNight(n.id, { db })).status).toBe("discarded");
    expect((await listNights({ projectId: p.id }, { db })).map((x) => x.id)).toEqual([n.id]);
  });

  it("projects: one per folder (CONFLICT naming directory), edits kept, only enabled cron patterns are scheduled", async () => {
    const s = sandbox();
    const input = SleepProjectInputSchema.parse({ name: "a", directory: s.project, cronPattern: "0 3 * * *" });
    const p = await createSleepProject(input, { db });
    await expect(createSleepProject(input, { db })).rejects.toMatchObject({ code: "CONFLICT", field: "directory" });
    expect((await listScheduledSleepProjects({ db })).some((x) => x.id === p.id)).toBe(false);
    await updateSleepProject(p.id, { ...input, enabled: true }, { db });
    expect(await listScheduledSleepProjects({ db })).toContainEqual({ id: p.id, cronPattern: "0 3 * * *" });
    expect((await listSleepProjects({ db })).find((x) => x.id === p.id)?.enabled).toBe(true);
  });
});

import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nightRoute from "../../app/api/sleep/nights/[nightId]/route";
import * as nightsRoute from "../../app/api/sleep/nights/route";
import * as projectRoute from "../../app/api/sleep/projects/[projectId]/route";
import * as runRoute from "../../app/api/sleep/projects/[projectId]/nights/route";
import * as projectsRoute from "../../app/api/sleep/projects/route";
import type { SleepNightDetail, SleepProjectView } from "../../lib/contracts/sleep";
import type { Db } from "../../lib/db/client";
import { closeSleepQueue, getSleepQueue, sleepSchedulerId } from "../../lib/queue/sleep";
import { makeTasksPayload, writeTasksFile } from "../../lib/sleep";
import { PERSONAS } from "../../lib/sleep/experiment/personas";
import { handleScheduledNight, handleSleepNight } from "../../worker/handlers/sleep-night";
import { freshDb, useAsDefaultDb } from "../helpers/db";

// The only folder these requests may name (env() is read lazily, after this line).
const ROOT = mkdtempSync(join(tmpdir(), "sleep-routes-"));
process.env.SKILLOPT_SLEEP_ROOTS = ROOT;
const quiet = { info: () => {}, warn: () => {} };

const json = (body: unknown, method = "POST") =>
  new Request("http://127.0.0.1/api", {
    method,
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
const ctx = <K extends string>(key: K, id: string) => ({ params: Promise.resolve({ [key]: id } as Record<K, string>) });

function fixture(name: string) {
  const dir = join(ROOT, name);
  mkdirSync(join(dir, "project"), { recursive: true });
  const tasksFile = writeTasksFile(
    join(dir, "tasks.json"),
    makeTasksPayload(PERSONAS.researcher(), {
      project: join(dir, "project"),
      transcriptSource: "claude",
      nSessions: 0,
      targetSkillPath: "",
    }),
  );
  return { name, directory: join(dir, "project"), transcriptHome: join(dir, "claude"), tasksFile, backend: "mock" };
}

async function runNight(projectId: string): Promise<SleepNightDetail> {
  const res = await runRoute.POST(json({ dryRun: false }), ctx("projectId", projectId));
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await getSleepQueue().remove(`sleep-${id}`); // this test drives the handler itself
  expect(await handleSleepNight(id, { log: quiet, home: ROOT })).toBe("done");
  return (await (
    await nightRoute.GET(new Request("http://127.0.0.1/x"), ctx("nightId", id))
  ).json()) as SleepNightDetail;
}

describe("Sleep API", () => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb("sqlite")).db;
    useAsDefaultDb(db);
    await getSleepQueue().obliterate({ force: true });
  });
  afterAll(async () => {
    await closeSleepQueue();
    await db?.$disconnect();
  });

  it("refuses bad projects naming the field, and writes nothing", async () => {
    const f = fixture("bad");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...f, directory: "/etc" }, "directory"],
      [{ ...f, directory: join(ROOT, "missing") }, "directory"],
      [{ ...f, cronPattern: "0 3 * * *\nrm -rf" }, "cronPattern"],
      [{ ...f, cronPattern: "* * * * * *" }, "cronPattern"],
      [{ ...f, enabled: true }, "cronPattern"],
      [{ ...f, name: "a\u001bb" }, "name"],
      [{ ...f, backend: "nope" }, "backend"],
      [{ ...f, backend: "handoff" }, "backend"],
      [{ ...f, tasksFile: "/etc/passwd" }, "tasksFile"],
      [{ ...f, targetSkillPath: join(f.directory as string, ".bashrc") }, "targetSkillPath"],
      [{ ...f, extra: 1 }, ""],
    ];
    for (const [body, field] of cases) {
      const res = await projectsRoute.POST(json(body));
      expect(res.status, JSON.stringify(body)).toBe(422);
      if (field) expect(((await res.json()) as { error: { field: string } }).error.field).toBe(field);
    }
    expect(await db.sleepProject.count()).toBe(0);
  });

  it("a project with a schedule gets its job scheduler; a night runs, shows its proposal beside the live file and is adopted", async () => {
    const res = await projectsRoute.POST(json({ ...fixture("good"), cronPattern: "0 3 * * *", enabled: true }));
    expect(res.status).toBe(201);
    const p = (await res.json()) as SleepProjectView;
    expect(p.nextRunAt).not.toBeNull();
    expect(await getSleepQueue().getJobScheduler(sleepSchedulerId(p.id))).toMatchObject({ pattern: "0 3 * * *" });
    const put = await projectRoute.PUT(
      json({ ...fixture("good"), directory: p.directory, enabled: false, cronPattern: "0 3 * * *" }, "PUT"),
      ctx("projectId", p.id),
    );
    expect(put.status).toBe(200);
    expect(await getSleepQueue().getJobScheduler(sleepSchedulerId(p.id))).toBeFalsy();

    const night = await runNight(p.id);
    expect(night).toMatchObject({ status: "staged", accepted: true, projectName: "good" });
    expect(night.gates.map((g) => g.status)).toContain("improved");
    const skill = night.proposals.find((x) => x.label === "skill")!;
    expect(skill).toMatchObject({ liveText: "", liveChanged: false, adopted: false });
    const list = (await (
      await nightsRoute.GET(new Request(`http://127.0.0.1/api/sleep/nights?projectId=${p.id}`))
    ).json()) as Array<{ id: string }>;
    expect(list.map((n) => n.id)).toEqual([night.id]);

    const adopt = await nightRoute.PATCH(json({ action: "adopt" }, "PATCH"), ctx("nightId", night.id));
    expect(adopt.status).toBe(200);
    expect(readFileSync(skill.livePath, "utf8")).toBe(skill.proposedText);
    const again = await nightRoute.PATCH(json({ action: "adopt" }, "PATCH"), ctx("nightId", night.id));
    expect(again.status).toBe(409);
  });

  it("adopt refuses a night whose live file was edited after it started, and the file keeps the edit; discard then closes it", async () => {
    const p = (await (await projectsRoute.POST(json(fixture("edited")))).json()) as SleepProjectView;
    const night = await runNight(p.id);
    const skill = night.proposals.find((x) => x.label === "skill")!;
    mkdirSync(join(skill.livePath, ".."), { recursive: true });
    writeFileSync(skill.livePath, "edited by hand\n");
    const detail = (await (
      await nightRoute.GET(new Request("http://127.0.0.1/x"), ctx("nightId", night.id))
    ).json()) as SleepNightDetail;
    expect(detail.proposals.find((x) => x.label === "skill")!.liveChanged).toBe(true);
    const res = await nightRoute.PATCH(json({ action: "adopt" }, "PATCH"), ctx("nightId", night.id));
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/changed since/);
    expect(readFileSync(skill.livePath, "utf8")).toBe("edited by hand\n");
    expect(existsSync(night.stagingDir)).toBe(true);
    const discard = await nightRoute.PATCH(json({ action: "discard" }, "PATCH"), ctx("nightId", night.id));
    expect(discard.status).toBe(200);
    expect(await discard.json()).toEqual({ status: "discarded", removedDir: night.stagingDir });
    expect((await db.sleepNight.findUniqueOrThrow({ where: { id: night.id } })).status).toBe("discarded");
    expect(existsSync(night.stagingDir)).toBe(false);
    expect(readFileSync(skill.livePath, "utf8")).toBe("edited by hand\n");
  });

  it("discard refuses a recorded staging folder outside the project's staging root and changes nothing", async () => {
    const p = (await (await projectsRoute.POST(json(fixture("unsafe")))).json()) as SleepProjectView;
    const night = await runNight(p.id);
    const elsewhere = mkdtempSync(join(tmpdir(), "sleep-elsewhere-"));
    writeFileSync(join(elsewhere, "keep.txt"), "keep\n");
    await db.sleepNight.update({ where: { id: night.id }, data: { stagingDir: elsewhere } });
    const res = await nightRoute.PATCH(json({ action: "discard" }, "PATCH"), ctx("nightId", night.id));
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/not a night folder/);
    expect((await db.sleepNight.findUniqueOrThrow({ where: { id: night.id } })).status).toBe("staged");
    expect(readFileSync(join(elsewhere, "keep.txt"), "utf8")).toBe("keep\n");
    expect(existsSync(night.stagingDir)).toBe(true);
  });

  it("deleting a project removes it, its nights and its job scheduler; its files stay; a running night refuses it", async () => {
    const f = fixture("doomed");
    const transcript = join(f.transcriptHome, "projects", "x", "s.jsonl");
    mkdirSync(join(transcript, ".."), { recursive: true });
    writeFileSync(transcript, '{"type":"user"}\n');
    const p = (await (
      await projectsRoute.POST(json({ ...f, cronPattern: "0 3 * * *", enabled: true }))
    ).json()) as SleepProjectView;
    const night = await runNight(p.id);
    await nightRoute.PATCH(json({ action: "adopt" }, "PATCH"), ctx("nightId", night.id));
    const live = night.proposals.find((x) => x.label === "skill")!;
    const liveText = readFileSync(live.livePath, "utf8");
    expect(await getSleepQueue().getJobScheduler(sleepSchedulerId(p.id))).toBeTruthy();

    const running = await db.sleepNight.create({
      data: { id: randomUUID(), projectId: p.id, projectDir: p.directory, status: "running", trigger: "manual" },
    });
    const refused = await projectRoute.DELETE(new Request("http://127.0.0.1/x"), ctx("projectId", p.id));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/night running/);
    expect(await db.sleepProject.count({ where: { id: p.id } })).toBe(1);
    expect(await getSleepQueue().getJobScheduler(sleepSchedulerId(p.id))).toBeTruthy();

    await db.sleepNight.update({ where: { id: running.id }, data: { status: "failed" } });
    const res = await projectRoute.DELETE(new Request("http://127.0.0.1/x"), ctx("projectId", p.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: p.id, nightsDeleted: 2, scheduleSynced: true });
    expect(await db.sleepProject.count({ where: { id: p.id } })).toBe(0);
    expect(await db.sleepNight.count({ where: { id: { in: [night.id, running.id] } } })).toBe(0);
    expect(await db.sleepGateRow.count({ where: { nightId: night.id } })).toBe(0);
    expect(await getSleepQueue().getJobScheduler(sleepSchedulerId(p.id))).toBeFalsy();
    expect(readFileSync(live.livePath, "utf8")).toBe(liveText);
    expect(readFileSync(transcript, "utf8")).toBe('{"type":"user"}\n');
    expect(existsSync(p.directory)).toBe(true);
    const gone = await projectRoute.DELETE(new Request("http://127.0.0.1/x"), ctx("projectId", p.id));
    expect(gone.status).toBe(404);
    expect(await handleScheduledNight(p.id, { log: quiet, home: ROOT })).toBe("missing");
  });
});

/**
 * A CLI night whose process is killed (SIGKILL: no handler runs, as in a crash or a reboot) must not stay
 * "running": the next dashboard read marks it interrupted with the reason, the project can then be
 * deleted, and the same `sleep run` run again takes that night over as its own.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nightRoute from "../../app/api/sleep/nights/[nightId]/route";
import * as projectRoute from "../../app/api/sleep/projects/[projectId]/route";
import { SleepProjectInputSchema, type SleepNightDetail } from "../../lib/contracts/sleep";
import type { Db } from "../../lib/db/client";
import { markDeadNightsInterrupted } from "../../lib/db/sleep-night-liveness";
import { createSleepProject } from "../../lib/db/sleep-projects";
import { makeTasksPayload, writeTasksFile } from "../../lib/sleep";
import { PERSONAS } from "../../lib/sleep/experiment/personas";
import { removeTempDirs, sandbox } from "../../lib/sleep/test-helpers";
import { freshDb, useAsDefaultDb } from "../helpers/db";
import { until } from "../helpers/processes";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  removeTempDirs();
});

const ctx = <K extends string>(key: K, id: string) => ({ params: Promise.resolve({ [key]: id } as Record<K, string>) });

/** A `pi` that never answers: it waits until the process that started it is gone, then exits. */
function hangingPi(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, "pi");
  writeFileSync(bin, "#!/bin/sh\nwhile kill -0 $PPID 2>/dev/null; do sleep 0.2; done\n");
  chmodSync(bin, 0o755);
  return dir;
}

describe("a CLI night whose process was killed", () => {
  let db: Db;
  let url: string;
  beforeAll(async () => {
    ({ db, url } = await freshDb("sqlite"));
    useAsDefaultDb(db);
  });
  afterAll(async () => db?.$disconnect());

  it("is shown interrupted with the reason, the project can be deleted, and a re-run takes the night over", async () => {
    const s = sandbox();
    const tasksPath = join(s.root, "tasks.json");
    writeTasksFile(
      tasksPath,
      makeTasksPayload(PERSONAS.researcher(), {
        project: s.project,
        transcriptSource: "claude",
        nSessions: 0,
        targetSkillPath: "",
      }),
    );
    // A real backend replays only a reviewed tasks file.
    writeFileSync(tasksPath, JSON.stringify({ ...JSON.parse(readFileSync(tasksPath, "utf8")), reviewed: true }));
    const project = await createSleepProject(
      SleepProjectInputSchema.parse({ name: "killed", directory: s.project, backend: "pi", tasksFile: tasksPath }),
      { db },
    );
    const args = ["--import", "tsx", "scripts/cli.ts", "sleep", "run", "--project", s.project];
    const common = [...args, "--claude-home", join(s.home, ".claude"), "--tasks-file", tasksPath];
    const child = spawn(process.execPath, [...common, "--backend", "pi"], {
      env: {
        ...process.env,
        HOME: s.home,
        DATABASE_URL: url,
        PATH: `${hangingPi(join(s.root, "bin"))}:${process.env.PATH ?? ""}`,
      },
      stdio: "ignore",
    });
    children.push(child);

    const running = await until(
      () => db.sleepNight.findFirst({ where: { projectDir: s.project } }),
      (n) => n?.status === "running",
      120_000,
      "the CLI night to be running",
    );
    expect(JSON.parse(running!.reportJson)).toMatchObject({ owner: { pid: child.pid } });
    // Alive: a read leaves it running, and the project cannot be deleted.
    expect(await markDeadNightsInterrupted({ db, staleAfterMs: 45_000, detectedBy: "the test" })).toBe(0);
    const refused = await projectRoute.DELETE(new Request("http://127.0.0.1/x"), ctx("projectId", project.id));
    expect(refused.status).toBe(409);

    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));

    // The next dashboard read notices: the pid is gone on this host (no waiting for a stale heartbeat).
    const res = await nightRoute.GET(new Request("http://127.0.0.1/x"), ctx("nightId", running!.id));
    const night = (await res.json()) as SleepNightDetail;
    expect(night.status).toBe("interrupted");
    expect(night.error).toMatch(new RegExp(`pid ${child.pid} .*is gone.*noticed by the dashboard`));

    // A re-run of the same night (mock backend this time) continues that row rather than adding one.
    const rerun = spawn(process.execPath, [...common, "--backend", "mock"], {
      env: { ...process.env, HOME: s.home, DATABASE_URL: url },
      stdio: "ignore",
    });
    children.push(rerun);
    expect(await new Promise((r) => rerun.once("exit", r))).toBe(0);
    const rows = await db.sleepNight.findMany({ where: { projectDir: s.project } });
    expect(rows.map((r) => [r.id, r.night, r.status, r.error])).toEqual([[running!.id, running!.night, "staged", ""]]);

    // With no night running, the project goes.
    const del = await projectRoute.DELETE(new Request("http://127.0.0.1/x"), ctx("projectId", project.id));
    expect(del.status).toBe(200);
    expect(await db.sleepProject.count({ where: { id: project.id } })).toBe(0);
  }, 600_000);
});

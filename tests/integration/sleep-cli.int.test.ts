import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client";
import { makeTasksPayload, writeTasksFile } from "../../lib/sleep";
import { PERSONAS } from "../../lib/sleep/experiment/personas";
import { removeTempDirs, sandbox } from "../../lib/sleep/test-helpers";
import { freshDb } from "../helpers/db";

afterAll(removeTempDirs);

function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "sleep", ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("CLI nights in the dashboard's database", () => {
  let db: Db;
  let url: string;
  beforeAll(async () => {
    ({ db, url } = await freshDb("sqlite"));
  });
  afterAll(async () => db?.$disconnect());

  it("sleep run records the night, sleep adopt marks it adopted; --no-db and a missing database record nothing", async () => {
    const s = sandbox();
    const tasks = writeTasksFile(
      join(s.root, "tasks.json"),
      makeTasksPayload(PERSONAS.researcher(), {
        project: s.project,
        transcriptSource: "claude",
        nSessions: 0,
        targetSkillPath: "",
      }),
    );
    const common = [
      "--project",
      s.project,
      "--claude-home",
      join(s.home, ".claude"),
      "--backend",
      "mock",
      "--tasks-file",
      tasks,
      "--json",
    ];
    const env = { HOME: s.home, DATABASE_URL: url };
    const run = cli(["run", ...common], env);
    expect(run.code, run.err).toBe(0);
    const staging = (JSON.parse(run.out) as { staging_dir: string }).staging_dir;
    const rows = await db.sleepNight.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      trigger: "cli",
      status: "staged",
      stagingDir: staging,
      projectDir: s.project,
      accepted: true,
    });
    expect(run.err).not.toMatch(/not recorded/);

    const adopt = cli(["adopt", "--project", s.project, "--claude-home", join(s.home, ".claude")], env);
    expect(adopt.code, adopt.err).toBe(0);
    expect((await db.sleepNight.findFirstOrThrow()).status).toBe("adopted");

    expect(cli(["dry-run", ...common, "--no-db"], env).err).not.toMatch(/not recorded/);
    const missing = cli(["dry-run", ...common], { ...env, DATABASE_URL: `file:${join(s.root, "none.db")}` });
    expect(missing.code).toBe(0);
    expect(missing.err.match(/warning: this night is not recorded for the dashboard/g)).toHaveLength(1);
    expect(await db.sleepNight.count()).toBe(1);
  });
});

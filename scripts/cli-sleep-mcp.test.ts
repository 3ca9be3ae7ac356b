import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERSONAS } from "../lib/sleep/experiment/personas";
import { snakeKeys } from "../lib/sleep/keys";
import { projectMarker } from "../lib/sleep/schedule/crontab";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-sleep-mcp-"));
const home = join(tmp, "home");
const project = join(tmp, "project");
const bin = join(tmp, "bin");
const table = join(tmp, "crontab.txt");
let client: Client;

type Text = { type: string; text: string };
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as {
    content: Text[];
    isError?: boolean;
  };
  return {
    isError: r.isError === true,
    texts: r.content.map((c) => c.text),
    json: () => JSON.parse(r.content[0]!.text),
  };
};

beforeAll(async () => {
  for (const d of [home, project, bin]) mkdirSync(d, { recursive: true });
  writeFileSync(
    join(bin, "crontab"),
    `#!/bin/sh\nif [ "$1" = "-l" ]; then [ -f "${table}" ] && cat "${table}" && exit 0; echo "no crontab for tester" >&2; exit 1; fi\ncat > "${table}"\n`,
  );
  chmodSync(join(bin, "crontab"), 0o755);
  // The host starts the server the way a user registers it: the wrapper script, in the project folder.
  const transport = new StdioClientTransport({
    command: join(root, "plugins", "mcp", "skillopt-sleep-mcp"),
    cwd: project,
    env: { HOME: home, PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, FORCE_COLOR: "0" },
    stderr: "pipe",
  });
  client = new Client({ name: "vitest-host", version: "1.0.0" });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("skillopt sleep mcp (stdio, driven by the SDK client)", { timeout: 180_000 }, () => {
  it("lists the seven sleep tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "sleep_adopt",
      "sleep_dry_run",
      "sleep_harvest",
      "sleep_run",
      "sleep_schedule",
      "sleep_status",
      "sleep_unschedule",
    ]);
    const schedule = tools.find((t) => t.name === "sleep_schedule")!;
    expect(schedule.inputSchema.properties).toMatchObject({
      hour: { type: "integer", minimum: 0, maximum: 23 },
      auto_adopt: { type: "boolean" },
    });
    expect(tools.find((t) => t.name === "sleep_adopt")!.inputSchema.properties).toHaveProperty("skills");
  });

  it("status works on the folder the host started the server in", async () => {
    const r = await call("sleep_status");
    expect(r.isError).toBe(false);
    expect(r.json()).toMatchObject({ night: 0, project, latest_staging: null });
  });

  it("dry-run, run and adopt a mock night from a reviewed tasks file, then status shows it", async () => {
    const tasks = join(tmp, "tasks.json");
    writeFileSync(
      tasks,
      JSON.stringify({ format: "skillopt_sleep.tasks.v1", reviewed: true, tasks: snakeKeys(PERSONAS.researcher()) }),
    );
    const dry = await call("sleep_dry_run", { tasks_file: tasks, backend: "mock" });
    expect(dry.isError, dry.texts.join("\n")).toBe(false);
    expect(dry.json()).toMatchObject({ staging_dir: "", adopted: false });
    expect(dry.json().n_tasks).toBeGreaterThan(0);

    const run = await call("sleep_run", { tasks_file: tasks, backend: "mock" });
    expect(run.isError, run.texts.join("\n")).toBe(false);
    const night = run.json();
    expect(night).toMatchObject({ night: 1, accepted: true, adopted: false });
    expect(existsSync(night.staging_dir)).toBe(true);

    const adopt = await call("sleep_adopt", { staging: night.staging_dir });
    expect(adopt.isError, adopt.texts.join("\n")).toBe(false);
    expect(adopt.json()).toMatchObject({ ok: true, staging_dir: night.staging_dir });
    for (const p of adopt.json().updated_paths as string[]) expect(readFileSync(p, "utf8").length).toBeGreaterThan(0);
    expect((await call("sleep_status", { project })).json()).toMatchObject({
      night: 1,
      latest_staging: night.staging_dir,
    });
  });

  it("harvest writes a tasks file to review", async () => {
    const out = join(tmp, "harvested.json");
    const r = await call("sleep_harvest", {
      output: out,
      source: "claude",
      claude_home: join(tmp, "no-claude"),
      lookback_hours: 0,
    });
    expect(r.isError, r.texts.join("\n")).toBe(false);
    expect(r.json()).toMatchObject({ format: "skillopt_sleep.tasks.v1", reviewed: false, output: out });
    expect(JSON.parse(readFileSync(out, "utf8")).reviewed).toBe(false);
  });

  it("schedule and unschedule edit the crontab's managed block", async () => {
    const s = await call("sleep_schedule", { hour: 2, minute: 30 });
    expect(s.isError, s.texts.join("\n")).toBe(false);
    expect(s.json().line).toMatch(/^30 2 \* \* \* /);
    expect(readFileSync(table, "utf8")).toContain(projectMarker(project));
    const u = await call("sleep_unschedule", { all: true });
    expect(u.json()).toMatchObject({ ok: true, removed: 1 });
    expect(readFileSync(table, "utf8")).toBe("");
  });

  it("bad input is a tool error: the SDK refuses schema violations, the CLI refuses the rest with its message", async () => {
    const schema = await call("sleep_schedule", { hour: 25 });
    expect(schema.isError).toBe(true);
    expect(schema.texts.join("\n")).toMatch(/hour/);
    const backend = await call("sleep_dry_run", { backend: "gpt4all" });
    expect(backend.isError).toBe(true);
    expect(backend.texts.join("\n")).toMatch(/unknown backend 'gpt4all'/);
    const unreviewed = join(tmp, "unreviewed.json");
    writeFileSync(
      unreviewed,
      JSON.stringify({ format: "skillopt_sleep.tasks.v1", reviewed: false, tasks: snakeKeys(PERSONAS.researcher()) }),
    );
    const refused = await call("sleep_run", { tasks_file: unreviewed, backend: "claude" });
    expect(refused.isError).toBe(true);
    expect(refused.texts.join("\n")).toMatch(/exit code 2/);
  });
});

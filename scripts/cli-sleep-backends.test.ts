import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PERSONAS } from "../lib/sleep/experiment/personas";
import { snakeKeys } from "../lib/sleep/keys";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-sleep-clibk-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("sleep with an agent CLI backend (fake pi on PATH)", { timeout: 180_000 }, () => {
  const home = join(tmp, "home");
  const project = join(tmp, "project");
  const bin = join(tmp, "bin");
  for (const d of [home, project, bin]) mkdirSync(d, { recursive: true });
  // Answers every prompt with one edit and counts its calls; reads the prompt from stdin like the real pi.
  writeFileSync(
    join(bin, "pi"),
    `#!/bin/sh\ncat > /dev/null\necho x >> "${join(tmp, "pi-calls")}"\necho '[{"op":"add","target":"skill","content":"Wrap the final answer in answer tags."}]'\n`,
  );
  chmodSync(join(bin, "pi"), 0o755);
  const tasks = join(tmp, "tasks.json");
  writeFileSync(
    tasks,
    JSON.stringify({
      format: "skillopt_sleep.tasks.v1",
      reviewed: true,
      tasks: snakeKeys(PERSONAS.researcher().slice(0, 4)),
    }),
  );
  const cli = (args: string[], path: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "sleep", ...args], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, HOME: home, PATH: path },
    });

  it("a dry-run replays the tasks through the CLI and gates its edits", () => {
    const r = cli(
      ["dry-run", "--project", project, "--backend", "pi", "--tasks-file", tasks, "--json"],
      `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    );
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ n_tasks: 4, accepted: false, staging_dir: "" });
    expect(j.rejected_edits[0]).toMatchObject({ op: "add", content: "Wrap the final answer in answer tags." });
    expect(readFileSync(join(tmp, "pi-calls"), "utf8").split("\n").filter(Boolean).length).toBeGreaterThan(4);
  });

  it("a missing CLI stops before anything runs, naming the executable and its setting (exit 2)", () => {
    const r = cli(
      ["run", "--project", project, "--backend", "cursor_agent"],
      `${dirname(process.execPath)}:/usr/bin:/bin`,
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /the Cursor Agent CLI 'cursor-agent' was not found on PATH\. .* Or set cursor_path \(--cursor-path\) to its location\./,
    );
  });
});

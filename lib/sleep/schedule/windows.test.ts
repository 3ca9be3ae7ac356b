import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "../test-helpers";
import type { CronEntry } from "./crontab";
import { createArgs, managedTasks, psQuote, runScript, taskName, TASK_PREFIX } from "./schtasks";
import { schedule, unschedule } from "./system";

afterAll(removeTempDirs);

/**
 * A fake `schtasks` keeping its tasks as lines "<name>\t<time>\t<command>" in $FAKE_TASKS and logging every
 * call's arguments (one per line, a "--" line after each call) to $FAKE_TASKS.calls.
 */
function fakeSchtasks(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, "schtasks"),
    `#!/bin/sh
PATH=/usr/bin:/bin
for a in "$@"; do echo "$a" >> "$FAKE_TASKS.calls"; done; echo "--" >> "$FAKE_TASKS.calls"
touch "$FAKE_TASKS"
case "$1" in
  /Create) grep -v "^$5	" "$FAKE_TASKS" > "$FAKE_TASKS.tmp"; mv "$FAKE_TASKS.tmp" "$FAKE_TASKS"
           printf '%s\\t%s\\t%s\\n' "$5" "$9" "$7" >> "$FAKE_TASKS"; echo "SUCCESS: created"; exit 0 ;;
  /Delete) grep -q "^$3	" "$FAKE_TASKS" || { echo "ERROR: The system cannot find the file specified." >&2; exit 1; }
           grep -v "^$3	" "$FAKE_TASKS" > "$FAKE_TASKS.tmp"; mv "$FAKE_TASKS.tmp" "$FAKE_TASKS"; exit 0 ;;
  /Query)  echo '"\\Microsoft\\Windows\\Defrag\\ScheduledDefrag","N/A","Ready"'
           cut -f1 "$FAKE_TASKS" | while read -r n; do echo "\\"\\\\$n\\",\\"N/A\\",\\"Ready\\""; done; exit 0 ;;
esac
echo "unexpected arguments: $*" >&2; exit 9
`,
  );
  chmodSync(join(bin, "schtasks"), 0o755);
  return bin;
}

function world() {
  const dir = tempDir("sleep-schtasks-");
  const project = join(dir, "project");
  mkdirSync(project);
  const bin = fakeSchtasks(dir);
  const tasks = join(dir, "tasks.txt");
  const env = { PATH: bin, FAKE_TASKS: tasks };
  const entry = (over: Partial<CronEntry> = {}): CronEntry => ({
    project,
    backend: "claude",
    hour: 4,
    minute: 5,
    autoAdopt: false,
    repo: "/opt/skillopt",
    node: "/usr/bin/node",
    ...over,
  });
  const table = () => (existsSync(tasks) ? readFileSync(tasks, "utf8").trimEnd().split("\n").filter(Boolean) : []);
  const calls = () => (existsSync(`${tasks}.calls`) ? readFileSync(`${tasks}.calls`, "utf8") : "");
  return { dir, project, env, entry, table, calls };
}

describe("sleep schedule on Windows (Task Scheduler)", () => {
  it("creates a daily task named after the project, running the helper script that runs the night", () => {
    const w = world();
    const r = schedule(w.entry({ autoAdopt: true }), w.env, "win32");
    expect(r.ok, r.message).toBe(true);
    const name = taskName(w.project);
    expect(name).toMatch(new RegExp(`^${TASK_PREFIX}[0-9a-f]{20}$`));
    const script = join(w.project, ".skillopt-sleep", "run.ps1");
    const firstCall = w.calls().split("--\n")[0]!.trimEnd().split("\n");
    expect(firstCall).toEqual([
      "/Create",
      "/SC",
      "DAILY",
      "/TN",
      name,
      "/TR",
      `powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -File "${script}"`,
      "/ST",
      "04:05",
      "/F",
    ]);
    const ps1 = readFileSync(script, "utf8");
    expect(ps1).toContain(`Set-Location -LiteralPath '/opt/skillopt'`);
    expect(ps1).toContain(
      `& '/usr/bin/node' '--import' 'tsx' 'scripts/cli.ts' 'sleep' 'run' '--project' '${w.project}' '--scope' 'invoked' '--backend' 'claude' '--auto-adopt' *>> '${w.project}/.skillopt-sleep/cron.log'`,
    );
    expect(r.scheduled).toEqual([name]);
    expect(r.message).toMatch(/scheduled task SkillOpt-Sleep-\w+ daily at 04:05 .*backend=claude, auto-adopt/);
  });

  it("a re-schedule replaces the project's task; unschedule removes only it; --all removes every managed task", () => {
    const w = world();
    const other = join(w.dir, "other");
    mkdirSync(other);
    expect(schedule(w.entry(), w.env, "win32").ok).toBe(true);
    expect(schedule(w.entry({ hour: 23, minute: 0 }), w.env, "win32").ok).toBe(true);
    expect(schedule(w.entry({ project: other }), w.env, "win32").scheduled).toEqual(
      [taskName(w.project), taskName(other)].sort(),
    );
    expect(w.table().find((l) => l.startsWith(taskName(w.project)))).toContain("\t23:00\t");
    const off = unschedule(w.project, w.env, "win32");
    expect(off).toMatchObject({ ok: true, removed: 1, scheduled: [taskName(other)] });
    expect(w.calls()).toContain(`/Delete\n/TN\n${taskName(w.project)}\n/F\n`);
    expect(existsSync(join(w.project, ".skillopt-sleep", "run.ps1"))).toBe(false);
    expect(unschedule(w.project, w.env, "win32")).toMatchObject({ ok: true, removed: 0 });
    expect(unschedule(null, w.env, "win32")).toMatchObject({ ok: true, removed: 1, scheduled: [] });
    expect(w.table()).toEqual([]);
    expect(w.calls()).not.toContain("ScheduledDefrag\n/F"); // another program's task is never deleted
  });

  it("refuses control characters and bad times, naming the field, before schtasks runs or a file is written", () => {
    const w = world();
    expect(() => schedule(w.entry({ project: `${w.project}\nx` }), w.env, "win32")).toThrow(
      /project cannot contain control characters/,
    );
    expect(() => schedule(w.entry({ backend: "mock\u001b[31m" }), w.env, "win32")).toThrow(
      /backend cannot contain control characters/,
    );
    expect(() => schedule(w.entry({ repo: 'C:\\a"b' }), w.env, "win32")).toThrow(/repository cannot contain '"'/);
    expect(() => schedule(w.entry({ hour: 24 }), w.env, "win32")).toThrow(/--hour/);
    expect(w.calls()).toBe("");
    expect(existsSync(join(w.project, ".skillopt-sleep"))).toBe(false);
  });

  it("a missing schtasks is a clear error with the command to run by hand; a failing one is reported", () => {
    const w = world();
    const none = schedule(w.entry(), { PATH: join(w.dir, "nowhere") }, "win32");
    expect(none.ok).toBe(false);
    expect(none.message).toMatch(/schtasks was not found on PATH/);
    expect(none.line).toMatch(
      /^schtasks \/Create \/SC DAILY \/TN SkillOpt-Sleep-\w+ \/TR "powershell\.exe .*" \/ST 04:05 \/F$/,
    );
    expect(unschedule(w.project, { PATH: join(w.dir, "nowhere") }, "win32").message).toMatch(/nothing to remove/);
    writeFileSync(join(w.dir, "bin", "schtasks"), '#!/bin/sh\necho "ERROR: Access is denied." >&2\nexit 1\n');
    const denied = schedule(w.entry(), w.env, "win32");
    expect(denied.ok).toBe(false);
    expect(denied.message).toMatch(/schtasks \/Create exited with code 1: ERROR: Access is denied\./);
  });

  it("the same entry on Linux still goes to crontab, not schtasks", () => {
    const w = world();
    const r = schedule(w.entry(), w.env, "linux");
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/crontab was not found on PATH/);
    expect(w.calls()).toBe("");
  });
});

describe("schtasks text", () => {
  it("quotes for PowerShell, reads managed names from the query CSV and keeps the task command short", () => {
    expect(psQuote("C:\\Users\\o'brien")).toBe("'C:\\Users\\o''brien'");
    expect(managedTasks(`"\\Other","N/A","Ready"\r\n"\\${TASK_PREFIX}abc","N/A","Ready"\r\n`)).toEqual([
      `${TASK_PREFIX}abc`,
    ]);
    const e: CronEntry = {
      project: "C:\\Users\\ana\\proj",
      backend: "mock",
      hour: 3,
      minute: 17,
      autoAdopt: false,
      repo: "C:\\skillopt",
      node: "C:\\Program Files\\nodejs\\node.exe",
    };
    expect(runScript(e, "\\")).toContain(`*>> 'C:\\Users\\ana\\proj\\.skillopt-sleep\\cron.log'`);
    const tr = createArgs(e, "C:\\Users\\ana\\proj\\.skillopt-sleep\\run.ps1")[6]!;
    expect(tr.length).toBeLessThanOrEqual(261);
  });
});

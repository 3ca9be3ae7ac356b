import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CRON_BEGIN, CRON_END, projectMarker } from "../lib/sleep/schedule/crontab";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-sleep-cron-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A fake `crontab` that keeps the table in $FAKE_CRONTAB and logs each invocation's arguments. */
function fakeCrontab(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const script = `#!/bin/sh
echo "$*" >> "$FAKE_CRONTAB.calls"
if [ "$1" = "-l" ]; then
  if [ -f "$FAKE_CRONTAB" ]; then cat "$FAKE_CRONTAB"; exit 0; fi
  echo "no crontab for tester" >&2; exit 1
fi
if [ "$1" = "-" ]; then cat > "$FAKE_CRONTAB"; exit 0; fi
echo "unexpected arguments: $*" >&2; exit 9
`;
  writeFileSync(join(bin, "crontab"), script);
  chmodSync(join(bin, "crontab"), 0o755);
  return bin;
}

function world(name: string) {
  const dir = join(tmp, name);
  const home = join(dir, "home");
  const project = join(dir, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const bin = fakeCrontab(dir);
  const table = join(dir, "crontab.txt");
  const cli = (args: string[], path = `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`) => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "sleep", ...args], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, HOME: home, PATH: path, FAKE_CRONTAB: table, FORCE_COLOR: "0" },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { dir, home, project, table, cli };
}

describe("skillopt sleep schedule / unschedule", { timeout: 120_000 }, () => {
  it("writes the managed line, keeps the user's lines, replaces on re-schedule and removes on unschedule", () => {
    const w = world("round-trip");
    const mine = "MAILTO=me\n15 * * * * /usr/local/bin/backup --quiet\n";
    writeFileSync(w.table, mine);
    const first = w.cli([
      "schedule",
      "--project",
      w.project,
      "--backend",
      "claude",
      "--hour",
      "4",
      "--minute",
      "5",
      "--auto-adopt",
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/scheduled nightly at 04:05 for .*backend=claude, auto-adopt/);
    const table = readFileSync(w.table, "utf8");
    expect(table.startsWith(mine)).toBe(true);
    const lines = table.slice(mine.length).trimEnd().split("\n");
    expect(lines[0]).toBe(CRON_BEGIN);
    expect(lines[2]).toBe(CRON_END);
    expect(lines[1]).toMatch(
      /^5 4 \* \* \* {2}mkdir -p \S+\/\.skillopt-sleep; cd \S+ && \S+ --import tsx scripts\/cli\.ts sleep run --project \S+ --scope invoked --backend claude --auto-adopt >> \S+\/cron\.log 2>&1 {2}# project-sha256=[0-9a-f]{64}$/,
    );
    expect(lines[1]).toContain(`cd ${root} && ${process.execPath} `);
    expect(lines[1]!.endsWith(projectMarker(w.project))).toBe(true);

    const again = w.cli(["schedule", "--project", w.project, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    const j = JSON.parse(again.stdout);
    expect(j).toMatchObject({ ok: true, project: w.project });
    expect(j.scheduled).toHaveLength(1);
    expect(j.line).toMatch(/^17 3 \* \* \* .* --backend mock >> /);
    expect(readFileSync(w.table, "utf8")).toBe(`${mine}${CRON_BEGIN}\n${j.line}\n${CRON_END}\n`);

    const other = join(w.dir, "other");
    mkdirSync(other);
    expect(w.cli(["schedule", "--project", other]).code).toBe(0);
    const off = w.cli(["unschedule", "--project", w.project]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(/removed the entry for/);
    const left = readFileSync(w.table, "utf8");
    expect(left).not.toContain(projectMarker(w.project));
    expect(left).toContain(projectMarker(other));
    const all = w.cli(["unschedule", "--all", "--json"]);
    expect(JSON.parse(all.stdout)).toMatchObject({ ok: true, removed: 1, scheduled: [] });
    expect(readFileSync(w.table, "utf8")).toBe(mine);
  });

  it("refuses bad input with exit 2 and leaves the crontab alone", () => {
    const w = world("bad");
    writeFileSync(w.table, "0 1 * * * keep\n");
    expect(w.cli(["schedule", "--project", w.project, "--hour", "24"])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--hour must be a whole number from 0 through 23/),
    });
    expect(w.cli(["schedule", "--project", w.project, "--minute", "x"]).code).toBe(2);
    expect(w.cli(["schedule", "--project", `${w.project}/a\tb`]).stderr).toMatch(
      /project cannot contain control characters/,
    );
    expect(w.cli(["schedule", "--project", w.project, "--backend", "nope"]).stderr).toMatch(
      /backend: unknown backend 'nope'/,
    );
    expect(readFileSync(w.table, "utf8")).toBe("0 1 * * * keep\n");
    expect(existsSync(`${w.table}.calls`)).toBe(false); // refused before crontab was even read
  });

  it("a missing crontab is a clear error (exit 1) with the line to add by hand", () => {
    const w = world("missing");
    const empty = join(w.dir, "empty-bin");
    mkdirSync(empty);
    const r = w.cli(["schedule", "--project", w.project], empty);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/crontab was not found on PATH; add this line to your scheduler by hand:\n17 3 \* \* \* /);
    expect(w.cli(["unschedule", "--project", w.project], empty)).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/crontab was not found on PATH; nothing to remove/),
    });
  });

  it("a crontab that cannot be read is never overwritten", () => {
    const w = world("unreadable");
    const bin = join(w.dir, "bin");
    writeFileSync(
      join(bin, "crontab"),
      `#!/bin/sh\necho "$*" >> "$FAKE_CRONTAB.calls"\nif [ "$1" = "-l" ]; then echo "crontab: permission denied" >&2; exit 1; fi\ncat > "$FAKE_CRONTAB"\n`,
    );
    const r = w.cli(["schedule", "--project", w.project]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /crontab -l exited with code 1: crontab: permission denied; the crontab was left as it is/,
    );
    expect(existsSync(w.table)).toBe(false);
  });
});

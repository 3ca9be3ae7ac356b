import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PERSONAS } from "../lib/sleep/experiment/personas";
import { snakeKeys } from "../lib/sleep/keys";

const root = join(import.meta.dirname, "..");
// Each case starts the CLI (several seconds on a busy machine); the bounds only catch a hang.
const tmp = mkdtempSync(join(tmpdir(), "skillopt-sleep-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function world(name: string) {
  const home = join(tmp, name, "home");
  const project = join(tmp, name, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const cli = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "sleep", ...args], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, HOME: home, FORCE_COLOR: "0", ...env },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { home, project, cli };
}

function tasksFile(dir: string, reviewed: boolean): string {
  const path = join(dir, "tasks.json");
  writeFileSync(
    path,
    JSON.stringify({ format: "skillopt_sleep.tasks.v1", reviewed, tasks: snakeKeys(PERSONAS.researcher()) }),
  );
  return path;
}

const RUN_KEYS = [
  "night",
  "accepted",
  "gate_action",
  "no_edits_reason",
  "baseline",
  "candidate",
  "n_tasks",
  "n_sessions",
  "n_accepted_edits",
  "n_rejected_edits",
  "edits",
  "rejected_edits",
  "gate_no_regression",
  "gate_trials",
  "skill_groups",
  "notes",
  "staging_dir",
  "staged_skills",
  "adopted",
];

describe("skillopt sleep experiment", { timeout: 60_000 }, () => {
  const { cli } = world("experiment");
  it("researcher: prints PASS and exits 0 with no key and no network", () => {
    const r = cli(["experiment", "--persona", "researcher", "--assert-improves"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^PASS: nightly consolidation improved the held-out score \(0\.\d+ -> 1\) and the gate blocked the harmful edit\.$/m,
    );
  });

  it("programmer --json: the result on stdout, the verdict on stderr", () => {
    const r = cli(["experiment", "--persona", "programmer", "--assert-improves", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([
      "persona",
      "backend",
      "model",
      "n_tasks",
      "nights_run",
      "baseline_holdout",
      "after_holdout",
      "lift",
      "improved",
      "gate_blocks_harmful",
      "tokens_used",
      "final_skill_excerpt",
      "trace",
    ]);
    expect(j).toMatchObject({ persona: "programmer", backend: "mock", improved: true, gate_blocks_harmful: true });
    expect(j.trace[1]).toMatchObject({ night: 1, action: "accept_new_best", n_edits: 1 });
    expect(r.stderr).toMatch(/^PASS: /m);
  });

  it("exits 1 with a FAIL line when nothing improves", () => {
    const r = cli([
      "experiment",
      "--persona",
      "researcher",
      "--edit-budget",
      "1",
      "--nights",
      "2",
      "--assert-improves",
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL: the held-out score did not improve/m);
  });

  it("refuses an unknown persona with one line and exit 2", () => {
    const r = cli(["experiment", "--persona", "poet"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("error: --persona must be one of researcher, programmer (got 'poet')");
  });
});

describe("skillopt sleep run / status / adopt", { timeout: 60_000 }, () => {
  const w = world("night");
  const file = tasksFile(w.project, false);

  it("run --json on a tasks file with the mock: the night's JSON, staged; then status and adopt", () => {
    const r = w.cli(["run", "--project", w.project, "--tasks-file", file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([...RUN_KEYS, "tasks_file", "tasks_reviewed"]);
    expect(j).toMatchObject({
      night: 1,
      accepted: true,
      gate_action: "accept_new_best",
      n_tasks: 12,
      n_accepted_edits: 2,
      adopted: false,
      tasks_file: file,
      tasks_reviewed: false,
    });
    expect(j.edits[0]).toEqual({
      target: "skill",
      op: "add",
      content: "Always wrap the final answer in <answer>...</answer> tags.",
      anchor: "",
      rationale: expect.any(String),
    });
    expect(existsSync(join(j.staging_dir, "manifest.json"))).toBe(true);

    const st = w.cli(["status", "--project", w.project, "--json"]);
    expect(st.code, st.stderr).toBe(0);
    const s = JSON.parse(st.stdout);
    expect(Object.keys(s)).toEqual([
      "night",
      "state_path",
      "project",
      "history_tail",
      "latest_staging",
      "slow_memory_chars",
      "staged_skills",
      "adopted_skills",
      "has_managed_proposal",
    ]);
    expect(s).toMatchObject({
      night: 1,
      project: w.project,
      latest_staging: j.staging_dir,
      has_managed_proposal: true,
      staged_skills: [],
    });

    const conflicting = w.cli(["adopt", "--project", w.project, "--skill", "x", "--legacy", "--json"]);
    expect(conflicting.code).toBe(2);
    expect(JSON.parse(conflicting.stdout)).toMatchObject({ ok: false, error: "invalid_selection" });

    const a = w.cli(["adopt", "--project", w.project, "--json"]);
    expect(a.code, a.stdout).toBe(0);
    const live = join(w.home, ".claude", "skills", "skillopt-sleep-learned", "SKILL.md");
    expect(JSON.parse(a.stdout)).toEqual({
      ok: true,
      staging_dir: j.staging_dir,
      mode: "legacy",
      adopted_skills: [],
      updated_paths: [live],
    });
    expect(readFileSync(live, "utf8")).toContain("Report arXiv ids in the exact form arXiv:XXXX.XXXXX.");

    const again = w.cli(["adopt", "--project", w.project]);
    expect(again.code).toBe(2);
    expect(again.stdout).toMatch(/^\[sleep\] adopt refused: the managed skill of this night was already adopted/);
  }, 240_000);

  it("adopt with nothing staged exits 1", () => {
    const empty = world("empty");
    const r = empty.cli(["adopt", "--project", empty.project]);
    expect(r.code).toBe(1);
    expect(r.stdout.trim()).toBe("[sleep] nothing to adopt (no staged night)");
  });

  it("refuses an unreviewed tasks file with a real backend (exit 2), before any model is built", () => {
    const r = w.cli(["run", "--project", w.project, "--tasks-file", file, "--backend", "openai", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: "unreviewed_tasks_file" });
  });

  it("a backend that cannot run at all is exit 1 (backend failure), nothing staged", () => {
    const b = world("broken");
    const bin = join(b.home, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "claude"), "#!/nonexistent/interpreter\n");
    chmodSync(join(bin, "claude"), 0o755);
    const r = b.cli(
      ["run", "--project", b.project, "--tasks-file", tasksFile(b.project, true), "--backend", "claude", "--json"],
      { PATH: `${bin}:${process.env.PATH}` },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: "backend_failed" });
    expect(existsSync(join(b.project, ".skillopt-sleep", "staging", ".latest"))).toBe(false);
  });

  it("the handoff backend writes its prompts and exits 3", () => {
    const h = world("handoff");
    const r = h.cli([
      "run",
      "--project",
      h.project,
      "--tasks-file",
      tasksFile(h.project, true),
      "--backend",
      "handoff",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(3);
    const j = JSON.parse(r.stdout);
    expect(j).toEqual({
      handoff_pending: expect.any(Number),
      prompts: join(h.project, ".skillopt-sleep-handoff", "PROMPTS.md"),
      answers_dir: join(h.project, ".skillopt-sleep-handoff", "answers"),
    });
    expect(j.handoff_pending).toBeGreaterThan(0);
  });

  it("a config file with an unknown key is one line naming it, exit 2", () => {
    const c = world("config");
    mkdirSync(join(c.home, ".skillopt-sleep"));
    writeFileSync(join(c.home, ".skillopt-sleep", "config.json"), JSON.stringify({ gate_modee: "off" }));
    const r = c.cli(["status", "--project", c.project]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `error: ${join(c.home, ".skillopt-sleep", "config.json")}: unknown key 'gate_modee'; did you mean 'gate_mode'?`,
    );
  });
});

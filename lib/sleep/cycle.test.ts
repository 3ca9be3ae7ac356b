import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { adoptNight } from "./adopt-night";
import { MOCK_RULES, MockBackend } from "./backend/mock";
import { stateDirOf, type SleepConfig } from "./config";
import { replayWorkers, runSleepCycle, type CycleDeps } from "./cycle";
import { readEvidence } from "./evidence";
import { PERSONAS } from "./experiment/personas";
import type { HarvestOptions } from "./harvest";
import { learnedLines } from "./learned";
import { assignSplits } from "./mine";
import type { SessionDigest } from "./session-digest";
import { readManifest } from "./staging/manifest";
import { latestStaging, stagingRoot } from "./staging/root";
import { digest, removeTempDirs, sandbox, testConfig, writeText } from "./test-helpers";
import { makeTask, type TaskRecord } from "./types";

afterAll(removeTempDirs);

const T0 = Date.UTC(2024, 4, 1, 3, 17, 0);

function deps(
  config: SleepConfig,
  digests: SessionDigest[] = [],
  seen: HarvestOptions[] = [],
  log: string[] = [],
): CycleDeps {
  let t = T0;
  return {
    config,
    now: () => (t += 1000),
    env: {},
    harvest: async (o) => {
      seen.push(o);
      return { digests, notes: ["harvest note"] };
    },
    log: (l) => log.push(l),
  };
}

const persona = () => assignSplits(PERSONAS.researcher(), { valFraction: 0.34, testFraction: 0, seed: 42 });

describe("runSleepCycle", () => {
  it("harvests with the configured scope, checkpoints and cap, mines, gates and stages the night", async () => {
    const s = sandbox();
    const cfg = testConfig(s);
    const seen: HarvestOptions[] = [];
    const ds = [
      digest({
        sessionId: "a",
        project: s.project,
        userPrompts: ["Write the changelog entry"],
        feedbackSignals: ["pos:thanks"],
      }),
      digest({
        sessionId: "b",
        project: s.project,
        userPrompts: ["Bump the package version"],
        feedbackSignals: ["neg:wrong"],
      }),
      digest({ sessionId: "c", project: s.project, userPrompts: ["Rename the config loader"] }),
    ];
    const out = await runSleepCycle(deps(cfg, ds, seen));
    expect(seen[0]).toMatchObject({
      source: "claude",
      home: s.home,
      scope: { kind: "invoked", project: s.project },
      since: { kind: "checkpoints", checkpoints: {}, lookbackHours: 72 },
      limit: 120,
    });
    expect(seen[0]!.replayMarkers).toHaveLength(5);
    expect(out.report).toMatchObject({
      night: 1,
      nSessions: 3,
      nTasks: 3,
      accepted: false,
      gateAction: "reject",
      noEditsReason: "the optimizer proposed no edits",
    });
    expect(out.report.notes).toContain("harvest note");
    expect(out.stagingDir).toBe(latestStaging(s.project));
    expect(readdirSync(out.stagingDir).sort()).toEqual([
      "diagnostics.json",
      "evidence.jsonl",
      "manifest.json",
      "report.json",
      "report.md",
    ]);
    const events = readEvidence(out.evidencePath).map((e) => `${e.stage}/${e.event}`);
    expect(events[0]).toBe("cycle/start");
    expect(events).toContain("harvest/session");
    expect(events).toContain("mine/task_ready");
    expect(events).toContain("gate/decision");
    expect(events.at(-1)).toBe("cycle/end");
    const state = JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8"));
    expect(state).toMatchObject({
      version: 1,
      night: 1,
      last_model_key: "mock::mock",
      last_model_key_format: 2,
      history: [{ night: 1, accepted: false, n_tasks: 3, staging: out.stagingDir }],
    });
    expect(Object.keys(state.last_harvest)).toEqual([s.project]);
    expect(state.task_archive).toHaveLength(3);
    // the second night asks harvest only for what is newer than the first night's checkpoint
    await runSleepCycle(deps(cfg, [], seen));
    expect(seen[1]!.since).toEqual({
      kind: "checkpoints",
      checkpoints: { [s.project]: state.last_harvest[s.project] },
      lookbackHours: 72,
    });
  });

  it("stages an accepted night's changed documents; adopt then writes the live skill", async () => {
    const s = sandbox();
    const cfg = testConfig(s);
    const out = await runSleepCycle(deps(cfg), { seedTasks: persona() });
    expect(out.report).toMatchObject({ accepted: true, gateAction: "accept_new_best" });
    const m = readManifest(out.stagingDir);
    expect(m).toMatchObject({ has_managed_skill: true, has_managed_memory: false, accepted: true });
    const live = join(s.home, ".claude", "skills", "skillopt-sleep-learned", "SKILL.md");
    expect(existsSync(live)).toBe(false);
    expect(adoptNight({ project: s.project })).toMatchObject({ ok: true, updatedPaths: [live] });
    expect(learnedLines(readFileSync(live, "utf8"))).toEqual([MOCK_RULES["wrap-answer"], MOCK_RULES["arxiv-id"]]);
    expect(existsSync(join(s.project, "CLAUDE.md"))).toBe(false);
  });

  it("auto_adopt adopts an accepted managed skill at once", async () => {
    const s = sandbox();
    const out = await runSleepCycle(deps(testConfig(s, { auto_adopt: true })), { seedTasks: persona() });
    expect(out.adopted).toBe(true);
    expect(out.adoptedPaths).toEqual([join(s.home, ".claude", "skills", "skillopt-sleep-learned", "SKILL.md")]);
  });

  it("an auto-adopt refused because the live file changed during the night keeps the staged night and its state", async () => {
    const s = sandbox();
    const live = writeText(
      join(s.home, ".claude", "skills", "skillopt-sleep-learned", "SKILL.md"),
      "---\nname: x\n---\nmine\n",
    );
    const cfg = testConfig(s, { auto_adopt: true });
    class EditsDuringTheNight extends MockBackend {
      override async attempt(t: TaskRecord, skill: string, memory: string): Promise<string> {
        writeFileSync(live, "edited during the night\n");
        return super.attempt(t, skill, memory);
      }
    }
    const night = await runSleepCycle({ ...deps(cfg), backend: new EditsDuringTheNight() }, { seedTasks: persona() });
    expect(night.report.accepted).toBe(true);
    expect(night.adopted).toBe(false);
    expect(night.report.notes.some((n) => /^auto-adopt refused: .*changed since staging/.test(n))).toBe(true);
    expect(readFileSync(live, "utf8")).toBe("edited during the night\n");
    expect(latestStaging(s.project)).toBe(night.stagingDir);
    expect(JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8")).history.at(-1)).toMatchObject({
      accepted: true,
      staging: night.stagingDir,
    });
  });

  it("a dry run stages nothing, saves no state, changes no live file and logs evidence in the state folder", async () => {
    const s = sandbox();
    const cfg = testConfig(s);
    const out = await runSleepCycle(deps(cfg), { seedTasks: persona(), dryRun: true });
    expect(out.report.accepted).toBe(true);
    expect(out.stagingDir).toBe("");
    expect(existsSync(stagingRoot(s.project))).toBe(false);
    expect(existsSync(join(stateDirOf(cfg), "state.json"))).toBe(false);
    expect(out.evidencePath.startsWith(join(stateDirOf(cfg), "evidence", "dryrun-"))).toBe(true);
    expect(readEvidence(out.evidencePath).at(-1)).toMatchObject({ event: "end", outcome: "dry_run" });
    expect(existsSync(join(s.home, ".claude"))).toBe(false);
  });

  it("a night with no tasks advances the checkpoint and stages nothing adoptable", async () => {
    const s = sandbox();
    const cfg = testConfig(s);
    const out = await runSleepCycle(deps(cfg, [digest({ sessionId: "x", userPrompts: ["hi"] })]));
    expect(out.report.notes).toContain("no tasks mined — nothing to consolidate");
    expect(out.stagingDir).toBe("");
    expect(latestStaging(s.project)).toBeNull();
    const state = JSON.parse(readFileSync(join(stateDirOf(cfg), "state.json"), "utf8"));
    expect(state.history).toEqual([{ night: 1, accepted: false, n_tasks: 0 }]);
  });

  it("an unreadable or non-UTF-8 live document stops the night naming the path, before anything is written", async () => {
    const s = sandbox();
    mkdirSync(join(s.home, ".claude", "skills", "skillopt-sleep-learned", "SKILL.md"), { recursive: true });
    await expect(runSleepCycle(deps(testConfig(s)), { seedTasks: persona() })).rejects.toThrow(
      /could not read the live skill .*SKILL\.md: EISDIR/,
    );
    const t = sandbox();
    writeFileSync(join(t.project, "CLAUDE.md"), Buffer.from([0xff, 0xfe, 0x41]));
    await expect(runSleepCycle(deps(testConfig(t)), { seedTasks: persona() })).rejects.toThrow(
      `the live memory is not valid UTF-8: ${join(t.project, "CLAUDE.md")}`,
    );
    expect(existsSync(stagingRoot(t.project))).toBe(false);
  });

  it("warns when the model changed since the last night", async () => {
    const s = sandbox();
    const cfg = testConfig(s);
    writeText(
      join(stateDirOf(cfg), "state.json"),
      JSON.stringify({ version: 1, night: 4, last_model_key: "openai::gpt-x", last_model_key_format: 2 }),
    );
    const log: string[] = [];
    const out = await runSleepCycle(deps(cfg, [], [], log), { seedTasks: persona(), dryRun: true });
    expect(out.report.night).toBe(5);
    expect(log[0]).toMatch(/^warning: model changed since last night \(was 'openai::gpt-x', now 'mock::mock'\)/);
  });

  it("replays with SKILLOPT_SLEEP_WORKERS lanes and gets the same night", async () => {
    const a = await runSleepCycle(deps(testConfig(sandbox())), { seedTasks: persona(), dryRun: true });
    const b = await runSleepCycle(
      { ...deps(testConfig(sandbox())), env: { SKILLOPT_SLEEP_WORKERS: "4" } },
      { seedTasks: persona(), dryRun: true },
    );
    expect({ ...b.report, project: "", startedAt: "", endedAt: "" }).toEqual({
      ...a.report,
      project: "",
      startedAt: "",
      endedAt: "",
    });
    expect(replayWorkers({ SKILLOPT_SLEEP_WORKERS: "4" })).toBe(4);
    expect(replayWorkers({ SKILLOPT_SLEEP_WORKERS: "lots" })).toBe(1);
  });

  it("scores the test split for the record only, and logs it", async () => {
    const s = sandbox();
    const out = await runSleepCycle(deps(testConfig(s, { test_fraction: 0.3 })), {
      seedTasks: persona().map((t, i) => ({ ...t, split: i < 3 ? "test" : i < 7 ? "val" : "train" })),
    });
    expect(readEvidence(out.evidencePath).find((e) => e.event === "held_out_score")).toMatchObject({
      stage: "test",
      n_test: 3,
    });
  });

  it("fan-out: a hinted group gets its own gate row and staged proposal; auto_adopt leaves it alone; an unknown skill is skipped", async () => {
    const s = sandbox();
    const gitSkill = writeText(join(s.project, ".agents", "skills", "git", "SKILL.md"), "# git\n\nUse git well.\n");
    const tagged = (id: string, split: "train" | "val", hint: string, rule: string) =>
      makeTask({
        id,
        intent: `q ${id}`,
        split,
        referenceKind: "exact",
        reference: `Ref ${id}`,
        tags: [`rule:${rule}`],
        skillHint: hint,
      });
    const tasks = [
      tagged("g1", "train", "git", "commit-imperative"),
      tagged("g2", "val", "git", "commit-imperative"),
      tagged("m1", "train", "", "units-si"),
      tagged("m2", "val", "", "units-si"),
      tagged("x1", "train", "ghost", "json-only"),
    ];
    const out = await runSleepCycle(deps(testConfig(s, { multi_skill_fanout: true, auto_adopt: true })), {
      seedTasks: tasks,
    });
    expect(out.report.skillGroups.map((g) => [g.skillName, g.status, g.accepted])).toEqual([
      ["git", "consolidated", true],
      ["skillopt-sleep-learned", "consolidated", true],
      ["ghost", "skipped", false],
    ]);
    expect(out.report.notes).toContain("skipped skill ghost: no SKILL.md for this skill in the configured skill roots");
    expect(out.stagedSkills).toEqual(["git"]);
    expect(readManifest(out.stagingDir).skills?.[0]).toMatchObject({
      skill_name: "git",
      live_skill_path: gitSkill,
      proposed_file: "proposed_SKILL.git.md",
    });
    expect(out.adopted).toBe(true);
    expect(readFileSync(gitSkill, "utf8")).toBe("# git\n\nUse git well.\n");
  });
});

import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isGateOff, loadSleepConfig, managedSkillPathOf, sessionLimitOf, stateDirOf } from "./config";
import { removeTempDirs, sandbox, writeText } from "./test-helpers";

afterAll(removeTempDirs);

describe("loadSleepConfig", () => {
  it("has every key with its default, paths resolved against the injected home and cwd", () => {
    const s = sandbox();
    const c = loadSleepConfig({ home: s.home, cwd: s.project });
    expect(c).toMatchObject({
      claude_home: join(s.home, ".claude"),
      codex_home: join(s.home, ".codex"),
      transcript_source: "claude",
      projects: "invoked",
      invoked_project: s.project,
      lookback_hours: 72,
      max_tasks_per_night: 40,
      max_tokens_per_night: 400000,
      val_fraction: 0.34,
      test_fraction: 0,
      backend: "mock",
      gate_mode: "on",
      gate_metric: "mixed",
      gate_mixed_weight: 0.5,
      gate_no_regression: false,
      edit_budget: 4,
      dream_rollouts: 1,
      dream_factor: 0,
      recall_k: 0,
      evolve_memory: true,
      evolve_skill: true,
      llm_mine: true,
      evidence_log: true,
      evidence_max_chars: 4000,
      redact_secrets: true,
      multi_skill_fanout: null,
      auto_adopt: false,
      managed_skill_name: "skillopt-sleep-learned",
      seed: 42,
    });
    expect(stateDirOf(c)).toBe(join(s.home, ".skillopt-sleep"));
    expect(managedSkillPathOf(c)).toBe(join(s.home, ".claude", "skills", "skillopt-sleep-learned", "SKILL.md"));
    expect(sessionLimitOf(c)).toBe(120);
  });

  it("reads config.json, then config.yaml; explicit overrides win over the file", () => {
    const s = sandbox();
    writeText(join(s.home, ".skillopt-sleep", "config.yaml"), "edit_budget: 7\nbackend: mock\nlookback_hours: 24\n");
    expect(loadSleepConfig({ home: s.home, cwd: s.project }).edit_budget).toBe(7);
    const c = loadSleepConfig({
      home: s.home,
      cwd: s.project,
      overrides: { edit_budget: 2, lookback_hours: undefined },
    });
    expect(c.edit_budget).toBe(2);
    expect(c.lookback_hours).toBe(24);
    writeText(join(s.home, ".skillopt-sleep", "config.json"), JSON.stringify({ edit_budget: 9 }));
    expect(loadSleepConfig({ home: s.home, cwd: s.project }).edit_budget).toBe(9);
  });

  it("names an unknown key, its source and the likely key meant", () => {
    const s = sandbox();
    const file = writeText(join(s.home, ".skillopt-sleep", "config.json"), JSON.stringify({ edit_budgett: 3 }));
    expect(() => loadSleepConfig({ home: s.home, cwd: s.project })).toThrow(
      `${file}: unknown key 'edit_budgett'; did you mean 'edit_budget'?`,
    );
    const t = sandbox();
    expect(() => loadSleepConfig({ home: t.home, cwd: t.project, overrides: { nonsense_key: 1 } })).toThrow(
      /options: unknown key 'nonsense_key'/,
    );
  });

  it("names the key and the file of a bad value, and refuses fractions that leave no train split", () => {
    const s = sandbox();
    const file = writeText(join(s.home, ".skillopt-sleep", "config.json"), JSON.stringify({ gate_metric: "median" }));
    expect(() => loadSleepConfig({ home: s.home, cwd: s.project })).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: gate_metric: `),
    );
    const t = sandbox();
    expect(() =>
      loadSleepConfig({ home: t.home, cwd: t.project, overrides: { val_fraction: 0.6, test_fraction: 0.4 } }),
    ).toThrow(/val_fraction \+ test_fraction must be < 1/);
    writeText(join(t.home, ".skillopt-sleep", "config.json"), "{not json");
    expect(() => loadSleepConfig({ home: t.home, cwd: t.project })).toThrow(/config\.json: cannot parse/);
  });

  it("uses holdout_fraction only when val_fraction is not given", () => {
    const s = sandbox();
    expect(loadSleepConfig({ home: s.home, cwd: s.project, overrides: { holdout_fraction: 0.5 } }).val_fraction).toBe(
      0.5,
    );
    expect(
      loadSleepConfig({ home: s.home, cwd: s.project, overrides: { holdout_fraction: 0.5, val_fraction: 0.2 } })
        .val_fraction,
    ).toBe(0.2);
  });

  it("moves the state beside a non-default claude_home, and honours an explicit state_dir", () => {
    const s = sandbox();
    const c = loadSleepConfig({
      home: s.home,
      cwd: s.project,
      overrides: { claude_home: join(s.root, "other", ".claude") },
    });
    expect(stateDirOf(c)).toBe(join(s.root, "other", ".skillopt-sleep"));
    expect(stateDirOf(loadSleepConfig({ home: s.home, cwd: s.project, overrides: { state_dir: "st" } }))).toBe(
      join(s.project, "st"),
    );
  });

  it("resolves a relative target skill path against the project", () => {
    const s = sandbox();
    const c = loadSleepConfig({
      home: s.home,
      cwd: s.root,
      overrides: { invoked_project: s.project, target_skill_path: ".agents/skills/x/SKILL.md" },
    });
    expect(managedSkillPathOf(c)).toBe(join(s.project, ".agents/skills/x/SKILL.md"));
  });

  it("treats off / none / false / greedy as the greedy gate", () => {
    for (const m of ["off", "None", "false", "GREEDY"]) expect(isGateOff(m)).toBe(true);
    expect(isGateOff("on")).toBe(false);
  });
});

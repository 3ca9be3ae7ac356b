import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { skillHash } from "../engine";
import { simRunPreset as simRun } from "./sim-harness";

describe("sample presets on the simulated model", () => {
  it("searchqa: golden run — exact gate sequence and best-skill hash", async () => {
    const r = await simRun("configs/searchqa/sample.yaml");
    expect(r.history.map((h) => h.action)).toMatchInlineSnapshot(`
      [
        "accept_new_best",
        "accept_new_best",
        "accept_new_best",
        "reject",
        "accept_new_best",
        "accept_new_best",
        "reject",
        "reject",
        "reject",
      ]
    `);
    expect(skillHash(r.best)).toMatchInlineSnapshot(`"aa535884ccccb89f"`);
    // What the preset must show a new user.
    const bests = r.history.map((h) => h.best_score as number);
    expect(bests.at(-1)!).toBeGreaterThan(r.summary.baseline_selection_hard as number);
    expect(new Set(bests.slice(0, 4)).size).toBeGreaterThan(1);
    expect(r.history.some((h) => h.action === "reject")).toBe(true);
    const slow = r.events.filter((e) => e.type === "slowUpdateApplied" && e.content);
    expect(slow.length).toBeGreaterThanOrEqual(1);
    expect(r.events.some((e) => e.type === "metaSkillUpdated" && e.action === "write_meta_skill")).toBe(true);
    expect(r.summary.test_hard as number).toBeGreaterThan(r.summary.baseline_test_hard as number);
    // A clean sample: no item shared across splits, no skill line quoting selection or test data.
    expect(r.summary.leakage).toEqual({
      items_compared: expect.any(Number),
      duplicates: 0,
      exact_duplicates: 0,
      near_duplicates: 0,
      memorised_lines: { seed: 0, best: 0 },
      threshold: 0.8,
    });
  });

  it("livemath: improves its best selection score with rejects, a slow update and a meta skill", async () => {
    const r = await simRun("configs/livemath/sample.yaml");
    expect(r.summary.best_selection_hard as number).toBeGreaterThan(r.summary.baseline_selection_hard as number);
    expect(r.history.some((h) => h.action === "reject")).toBe(true);
    expect(r.events.some((e) => e.type === "slowUpdateApplied" && e.content)).toBe(true);
    expect(r.events.some((e) => e.type === "metaSkillUpdated" && e.action === "write_meta_skill")).toBe(true);
    expect(r.summary.leakage).toMatchObject({ duplicates: 0, memorised_lines: { seed: 0, best: 0 } });
  });

  it("is deterministic: the same config gives the same run", async () => {
    const a = await simRun("configs/searchqa/sample.yaml", ["train.num_epochs=2"]);
    const b = await simRun("configs/searchqa/sample.yaml", ["train.num_epochs=2"]);
    expect(b.history).toEqual(a.history);
    expect(b.best).toBe(a.best);
  });

  const stages = (s: Record<string, unknown>) => Object.keys(s.token_summary as object);

  it("reaches every optimizer call type of patch mode: analysts, merges (level and final), ranking, slow update, meta", async () => {
    const r = await simRun("configs/searchqa/sample.yaml");
    expect(stages(r.summary)).toEqual(
      expect.arrayContaining(["analyst", "merge", "ranking", "slow_update", "meta_skill", "rollout"]),
    );
    const finals = [...r.store.json.keys()].filter((k) => k.endsWith("calls/merge_final.json"));
    const levels = [...r.store.json.keys()].filter((k) => /calls\/merge_(failure|success)_L\d+_C\d+\.json$/.test(k));
    expect(finals.length).toBeGreaterThan(0);
    expect(levels.length).toBeGreaterThan(0);
  });

  it("rewrite_from_suggestions mode rewrites the skill and improves it", async () => {
    const r = await simRun("configs/searchqa/sample.yaml", ["optimizer.skill_update_mode=rewrite"]);
    expect(stages(r.summary)).toContain("rewrite");
    expect(r.summary.best_selection_hard as number).toBeGreaterThan(r.summary.baseline_selection_hard as number);
  });

  it("full_rewrite_minibatch mode takes whole documents and skips the learning rate", async () => {
    const r = await simRun("configs/searchqa/sample.yaml", ["optimizer.skill_update_mode=full_rewrite"]);
    expect(r.history.every((h) => h.edit_budget === null || h.action?.toString().startsWith("skip"))).toBe(true);
    expect(r.summary.best_selection_hard as number).toBeGreaterThan(r.summary.baseline_selection_hard as number);
  });

  it("the autonomous schedule asks the optimizer for the learning rate", async () => {
    const r = await simRun("configs/searchqa/sample.yaml", [
      "optimizer.lr_control_mode=autonomous",
      "optimizer.lr_scheduler=autonomous",
    ]);
    expect(stages(r.summary)).toContain("lr_autonomous");
    expect(r.store.lines.get("lr_history.jsonl")?.length).toBeGreaterThan(0);
    expect(r.summary.best_selection_hard as number).toBeGreaterThan(r.summary.baseline_selection_hard as number);
  });

  it("skill-aware reflection collects execution notes in the appendix and consolidates them", async () => {
    const r = await simRun("configs/searchqa/sample.yaml", [
      "optimizer.use_skill_aware_reflection=true",
      "optimizer.skill_aware_consolidate_threshold=1",
      "model.sim_slip_rate=0.3",
    ]);
    expect(stages(r.summary)).toContain("appendix_consolidate");
    const finalSkill = r.history.at(-1)!;
    expect(finalSkill.n_appendix_notes_total ?? 0).toBeDefined();
    const skills = [...r.store.text.entries()].filter(([k]) => k.startsWith("skills/")).map(([, v]) => v);
    expect(skills.some((s) => s.includes("<!-- APPENDIX_START -->") && /- Follow the existing rule/.test(s))).toBe(
      true,
    );
  });

  it("gated slow update competes on the selection split", async () => {
    const r = await simRun("configs/searchqa/sample.yaml", ["optimizer.slow_update_gate_with_selection=true"]);
    const slow = r.events.filter(
      (e): e is Extract<EngineEvent, { type: "slowUpdateApplied" }> => e.type === "slowUpdateApplied" && e.epoch > 1,
    );
    expect(slow.some((e) => e.selectionHard !== null)).toBe(true);
  });

  it("counts each model call once: the summary's calls per role match the clients' own counts", async () => {
    const r = await simRun("configs/searchqa/sample.yaml");
    const tokens = r.summary.token_summary as Record<string, { calls: number }>;
    const byRole = r.run.policy.stats();
    const targetCalls = byRole.target?.total.calls;
    const optimizerCalls = byRole.optimizer?.total.calls;
    expect(targetCalls).toBeGreaterThan(0);
    expect(tokens.rollout?.calls).toBe(targetCalls);
    const optimizerStages = Object.entries(tokens).filter(([stage]) => stage !== "rollout" && stage !== "_total");
    expect(optimizerStages.reduce((n, [, v]) => n + v.calls, 0)).toBe(optimizerCalls);
  });
});

/** The epoch boundary's slow update: epoch 1's placeholder, force mode and gated mode. Meta skill: epoch-boundary-meta.test.ts. */
import { describe, expect, it } from "vitest";
import { SLOW_UPDATE_END, SLOW_UPDATE_START, replaceSlowUpdate } from "./protected";
import { skillHash } from "./scoring";
import { freshState } from "./state";
import { BEST, CURR, PREV_SNAPSHOT, epoch2State, setup, userOf } from "./testing-epoch-boundary";

describe("slow update, epoch 1", () => {
  it("injects the empty placeholder block without any call and snapshots the step skill", async () => {
    const { deps, optimizer, target, boundary } = setup();
    const st = freshState("# Skill\n- alpha\n");
    Object.assign(st, { currentScore: 0.25, bestScore: 0.25, lastCompletedStep: 3, bestSkill: "# Skill\n- alpha\n" });
    expect(await boundary(st, 1, 3)).toBe(true);
    expect(st.currentSkill).toBe(`# Skill\n- alpha\n\n${SLOW_UPDATE_START}\n${SLOW_UPDATE_END}\n`);
    expect(st.currentOrigin).toBe("slow_update_placeholder_epoch_01");
    expect(st.currentScore).toBe(0.25);
    expect(st.bestSkill).toBe("# Skill\n- alpha\n");
    expect(await deps.store.getText("skills/skill_v0003.md")).toBe(st.currentSkill);
    expect(await deps.store.getText("best_skill.md")).toBe("# Skill\n- alpha\n");
    expect(await deps.store.getJson("slow_update/epoch_01/slow_result.json")).toEqual({
      action: "inject_placeholder",
      epoch: 1,
    });
    expect(await deps.store.getJson("runtime_state.json")).toMatchObject({
      slow_update_done_epoch: 1,
      current_origin: "slow_update_placeholder_epoch_01",
    });
    expect(optimizer.calls).toHaveLength(0);
    expect(target.count).toBe(0);
    // Done once: a second call has nothing left to do.
    expect(await boundary(st, 1, 3)).toBe(false);
  });
});

describe("slow update, epoch ≥ 2, force mode (default)", () => {
  it("makes the guidance current only, caches (current_score, 0) for it, and records force_accept", async () => {
    const { deps, optimizer, events, boundary } = setup();
    const st = await epoch2State(deps, { current: 0.5, best: 0.75 });
    await boundary(st, 2, 6);
    const expected = replaceSlowUpdate(CURR, "- keep beta");
    expect(st.currentSkill).toBe(expected);
    expect(st.currentScore).toBe(0.5);
    expect(st.currentOrigin).toBe("slow_update_epoch_02");
    expect(st.selCache[skillHash(expected)]).toEqual([0.5, 0]);
    expect([st.bestSkill, st.bestScore, st.bestStep, st.bestOrigin]).toEqual([BEST, 0.75, 2, "step_0002"]);
    const result = await deps.store.getJson<Record<string, unknown>>("slow_update/epoch_02/slow_result.json");
    expect(result).toMatchObject({
      action: "force_accept",
      epoch: 2,
      reasoning: "it helped",
      slow_update_content: "- keep beta",
      candidate_hash: skillHash(expected),
      update_origin: "slow_update_momentum",
    });
    expect(typeof result!.update_target).toBe("string");
    expect(typeof result!.time_s).toBe("number");
    expect(typeof result!.prev_hard).toBe("number");
    expect(typeof result!.curr_hard).toBe("number");
    expect(await deps.store.getText("slow_update/epoch_02/candidate_skill.md")).toBe(expected);
    expect(await deps.store.getText("skills/skill_v0006.md")).toBe(expected);
    expect(await deps.store.getText("best_skill.md")).toBe(BEST);
    const pairs = (await deps.store.getJson<Array<Record<string, unknown>>>(
      "slow_update/epoch_02/comparison_pairs.json",
    ))!;
    expect(pairs).toHaveLength(4);
    expect(Object.keys(pairs[0]!).sort()).toEqual(["category", "curr", "id", "prev", "task"]);
    expect(await deps.store.getJson("runtime_state.json")).toMatchObject({ slow_update_done_epoch: 2 });
    expect(events.find((e) => e.type === "slowUpdateApplied")).toMatchObject({
      epoch: 2,
      action: "force_accept",
      content: "- keep beta",
    });
    // The call sees the previous epoch's snapshot, the current skill and its existing guidance.
    const call = optimizer.calls[0]!;
    expect(call).toMatchObject({ stage: "slow_update", maxTokens: 16384 });
    const user = userOf(call);
    expect(user).toContain("## Previous Epoch Skill\n<skill>\n" + PREV_SNAPSHOT.trimEnd());
    expect(user).toContain("- step edit");
    expect(user).toContain("Reflect on whether this guidance helped before you revise it:\n- old guidance");
    expect(user).toContain("## Longitudinal Comparison on the same 4 tasks");
  });

  it("records no_content and leaves the skill alone when the answer has no guidance", async () => {
    for (const answer of [
      () => JSON.stringify({ reasoning: "r", slow_update_content: "   " }),
      () => "nothing useful",
      () => new Error("down"),
    ]) {
      const { deps, boundary } = setup({ answer });
      const st = await epoch2State(deps, { current: 0.5, best: 0.75 });
      await boundary(st, 2, 6);
      expect(st.currentSkill).toBe(CURR);
      expect(st.currentOrigin).toBe("step_0005");
      const result = await deps.store.getJson<Record<string, unknown>>("slow_update/epoch_02/slow_result.json");
      expect(result).toMatchObject({ action: "no_content" });
      expect(typeof result!.time_s).toBe("number");
      expect(await deps.store.getText("skills/skill_v0006.md")).toBe(CURR);
    }
  });
});

describe("slow update, epoch ≥ 2, gated mode", () => {
  // Selection items v0…v5 need alpha, beta, gamma: CURR (alpha) scores 2/6, the candidate (alpha + beta) 4/6.
  const CAND_HARD = 4 / 6;

  it("is a real gate even with use_gate false: a candidate that does not beat current is rejected", async () => {
    const { deps, boundary } = setup({ gated: true, useGate: false });
    const st = await epoch2State(deps, { current: 0.9, best: 0.95 });
    await boundary(st, 2, 6);
    expect(st.currentSkill).toBe(CURR);
    expect(st.currentScore).toBe(0.9);
    expect(st.currentOrigin).toBe("step_0005");
    const result = await deps.store.getJson<Record<string, unknown>>("slow_update/epoch_02/slow_result.json");
    expect(result).toMatchObject({ action: "reject", selection_hard: CAND_HARD });
    expect(deps.store.rows.get("slow_update/epoch_02/selection_eval/results.jsonl")).toHaveLength(6);
    expect(await deps.store.getText("skills/skill_v0006.md")).toBe(CURR);
  });

  it("accept: current moves, best stays", async () => {
    const { deps, boundary } = setup({ gated: true });
    const st = await epoch2State(deps, { current: 0.5, best: 0.8 });
    await boundary(st, 2, 6);
    const cand = replaceSlowUpdate(CURR, "- keep beta");
    expect([st.currentSkill, st.currentScore, st.currentOrigin]).toEqual([cand, CAND_HARD, "slow_update_epoch_02"]);
    expect([st.bestSkill, st.bestScore, st.bestStep, st.bestOrigin]).toEqual([BEST, 0.8, 2, "step_0002"]);
    expect(st.selCache[skillHash(cand)]![0]).toBe(CAND_HARD);
    expect(await deps.store.getJson("slow_update/epoch_02/slow_result.json")).toMatchObject({
      action: "accept",
      selection_hard: CAND_HARD,
    });
  });

  it("accept_new_best credits the last step of the epoch and sets the best origin", async () => {
    const { deps, boundary } = setup({ gated: true });
    const st = await epoch2State(deps, { current: 0.5, best: 0.6 });
    await boundary(st, 2, 6);
    const cand = replaceSlowUpdate(CURR, "- keep beta");
    expect([st.bestSkill, st.bestScore, st.bestStep, st.bestOrigin]).toEqual([
      cand,
      CAND_HARD,
      6,
      "slow_update_epoch_02",
    ]);
    expect(await deps.store.getText("best_skill.md")).toBe(cand);
  });
});

import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { readMetaContent, runEpochBoundary } from "./epoch-boundary";
import { evalItems } from "./phases/evaluate";
import type { CompletionRequest, ModelClient } from "./ports";
import { SIGNATURES } from "./prompts/common";
import { SLOW_UPDATE_END, SLOW_UPDATE_START, replaceSlowUpdate } from "./protected";
import { skillHash } from "./scoring";
import { freshState, type TrainState } from "./state";
import { CountingClient, ScriptedClient, testConfig, testContext, testDeps, wordSplits } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { runTraining } from "./trainer";
import type { StepRecord } from "./types";

const userOf = (req: CompletionRequest): string => String(req.messages[0]?.content ?? "");

const PREV_SNAPSHOT = `# Skill\n- alpha\n\n${SLOW_UPDATE_START}\n- old guidance\n${SLOW_UPDATE_END}\n`;
const CURR = `# Skill\n- alpha\n\n${SLOW_UPDATE_START}\n- old guidance\n${SLOW_UPDATE_END}\n`.replace(
  "- alpha\n",
  "- alpha\n- step edit\n",
);
const BEST = "# Best skill\n- alpha\n- beta\n";

const rec = (step: number, epoch: number): StepRecord => ({
  step,
  epoch,
  step_in_epoch: (step - 1) % 3,
  action: "accept",
});

interface Options {
  slow?: boolean;
  meta?: boolean;
  gated?: boolean;
  useGate?: boolean;
  answer?: (req: CompletionRequest) => string | Error;
}

function setup(opts: Options = {}) {
  const optimizer = new ScriptedClient(
    opts.answer ??
      ((req) =>
        req.system.startsWith(SIGNATURES.slowUpdate)
          ? JSON.stringify({ reasoning: " it helped ", slow_update_content: "  - keep beta  " })
          : JSON.stringify({ reasoning: "memo", meta_skill_content: " - small appends work " })),
  );
  const target = new CountingClient(new ScriptedClient(() => "ok"));
  const config = testConfig({
    optimizer: {
      use_slow_update: opts.slow ?? true,
      use_meta_skill: opts.meta ?? false,
      slow_update_samples: 4,
      slow_update_gate_with_selection: opts.gated ?? false,
    },
    evaluation: { use_gate: opts.useGate ?? true },
  });
  const events: EngineEvent[] = [];
  const deps = testDeps({ optimizer, target, config, onEvent: (e) => events.push(e) });
  const ctx = testContext(deps);
  const selectionItems = evalItems(ctx, deps.splits, "val");
  const boundary = (st: TrainState, epoch: number, lastStep: number) =>
    runEpochBoundary(ctx, st, { epoch, lastStep, train: deps.splits.train, selectionItems });
  return { ctx, deps, optimizer, target, events, boundary };
}

/** State at the end of epoch 2 (steps 4–6), after epoch 1 (steps 1–3) left PREV_SNAPSHOT as skill_v0003. */
async function epoch2State(
  deps: ReturnType<typeof setup>["deps"],
  scores: { current: number; best: number },
): Promise<TrainState> {
  await deps.store.putText("skills/skill_v0003.md", PREV_SNAPSHOT);
  const st = freshState("# init\n");
  Object.assign(st, {
    currentSkill: CURR,
    currentScore: scores.current,
    currentOrigin: "step_0005",
    bestSkill: BEST,
    bestScore: scores.best,
    bestStep: 2,
    bestOrigin: "step_0002",
    lastCompletedStep: 6,
    slowDoneEpoch: 1,
    metaDoneEpoch: 1,
    history: [rec(1, 1), rec(2, 1), rec(3, 1), rec(4, 2), rec(5, 2), rec(6, 2)],
  });
  return st;
}

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

describe("meta skill", () => {
  it("skips epoch 1 without a call", async () => {
    const { deps, optimizer, target, boundary } = setup({ slow: false, meta: true });
    const st = freshState("# Skill\n");
    await boundary(st, 1, 3);
    expect(await deps.store.getJson("meta_skill/epoch_01/meta_skill_result.json")).toEqual({
      action: "skip_first_epoch",
      epoch: 1,
    });
    expect(optimizer.calls).toHaveLength(0);
    expect(target.count).toBe(0);
    expect(await readMetaContent(testContext(deps), 1)).toBe("");
  });

  it("writes write_meta_skill from its own pairs when the slow update is off, and the next epoch reflects on it", async () => {
    const { deps, ctx, optimizer, target, boundary } = setup({ slow: false, meta: true });
    const st = await epoch2State(deps, { current: 0.5, best: 0.75 });
    await deps.store.putJson("meta_skill/epoch_01/meta_skill_result.json", { action: "skip_first_epoch", epoch: 1 });
    await boundary(st, 2, 6);
    expect(await deps.store.getJson("meta_skill/epoch_02/meta_skill_result.json")).toMatchObject({
      action: "write_meta_skill",
      reasoning: "memo",
      meta_skill_content: "- small appends work",
      epoch: 2,
    });
    expect(await deps.store.getJson("meta_skill/epoch_02/calls/meta_skill.json")).toMatchObject({ ok: true });
    expect(await deps.store.getJson("meta_skill/epoch_02/comparison_pairs.json")).toHaveLength(4);
    expect(deps.store.rows.has("meta_skill/epoch_02/rollout_prev/results.jsonl")).toBe(true);
    expect(target.count).toBe(8);
    expect(st.currentSkill).toBe(CURR);
    expect(await readMetaContent(ctx, 2)).toBe("- small appends work");
    const first = userOf(optimizer.calls[0]!);
    expect(optimizer.calls[0]!.stage).toBe("meta_skill");
    expect(first).toContain("(none yet: this is the first memory)");

    // Epoch 3 revises the epoch-2 memory.
    st.history.push(rec(7, 3), rec(8, 3), rec(9, 3));
    await deps.store.putText("skills/skill_v0006.md", CURR);
    await boundary(st, 3, 9);
    const second = userOf(optimizer.calls[1]!);
    expect(second).toContain("Reflect on whether these notes held up before you revise them:\n- small appends work");
  });

  it("with the slow update on, compares the pre-slow-update skill and re-pays no rollout", async () => {
    const { deps, optimizer, target, boundary } = setup({ slow: true, meta: true });
    const st = await epoch2State(deps, { current: 0.5, best: 0.75 });
    await boundary(st, 2, 6);
    expect(st.currentSkill).toContain("- keep beta");
    expect(target.count).toBe(8);
    const meta = optimizer.calls.find((c) => c.stage === "meta_skill")!;
    const current = userOf(meta)
      .split("## Current Epoch Last-Step Skill")[1]!
      .split("## Previous Optimizer Memory")[0]!;
    expect(current).toContain("- step edit");
    expect(current).toContain("- old guidance");
    expect(current).not.toContain("- keep beta");
    expect(await boundary(st, 2, 6)).toBe(false);
    expect(optimizer.calls).toHaveLength(2);
  });

  it("reaches the analysts only from epoch 3 on, since epoch 1 writes no memory", async () => {
    let epoch = 0;
    const inner = wordOptimizer();
    const seen: Array<{ epoch: number; req: CompletionRequest }> = [];
    const optimizer: ModelClient = {
      backend: "test",
      model: "test",
      async complete(req) {
        seen.push({ epoch, req });
        return inner.complete(req);
      },
    };
    const deps = testDeps({
      optimizer,
      config: testConfig({ train: { num_epochs: 3, batch_size: 4 } }),
      splits: wordSplits(),
      onEvent: (e) => {
        if (e.type === "stepStarted") epoch = e.epoch;
      },
    });
    await runTraining(deps);
    const analysts = (e: number) =>
      seen.filter((s) => s.epoch === e && s.req.stage === "analyst").map((s) => userOf(s.req));
    for (const e of [1, 2, 3]) expect(analysts(e).length).toBeGreaterThan(0);
    for (const e of [1, 2]) for (const u of analysts(e)) expect(u).not.toContain("Optimizer Meta Skill");
    for (const u of analysts(3)) {
      expect(u).toContain("## Optimizer Meta Skill");
      expect(u).toContain("- appends help");
    }
    expect(await deps.store.getJson("meta_skill/epoch_01/meta_skill_result.json")).toEqual({
      action: "skip_first_epoch",
      epoch: 1,
    });
    expect(await deps.store.getJson("meta_skill/epoch_02/meta_skill_result.json")).toMatchObject({
      action: "write_meta_skill",
    });
  });
});

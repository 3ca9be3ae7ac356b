/** The epoch boundary's meta skill (write_meta_skill and its use by the next epoch). Slow update: epoch-boundary.test.ts. */
import { describe, expect, it } from "vitest";
import { readMetaContent } from "./epoch-boundary";
import type { CompletionRequest, ModelClient } from "./ports";
import { freshState } from "./state";
import { CURR, epoch2State, rec, setup, userOf } from "./testing-epoch-boundary";
import { testConfig, testContext, testDeps, wordSplits } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { runTraining } from "./trainer";

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

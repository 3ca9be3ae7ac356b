import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../ports";
import type { RunPlan } from "../context";
import { SIGNATURES } from "../prompts/common";
import { createScheduler, type Scheduler } from "../schedule";
import { ScriptedClient, testConfig, testContext, testDeps } from "../testing";
import type { Patch } from "../types";
import { selectEdits, type SelectInput } from "./select";

const userOf = (req: CompletionRequest): string => String(req.messages[0]?.content ?? "");
const edit = (content: string) => ({ op: "append", content });
const pool = (n: number): Patch => ({ reasoning: "merged", edits: Array.from({ length: n }, (_, i) => edit(`e${i}`)) });
const constant = (lr: number): Scheduler => createScheduler("constant", { maxLr: lr, minLr: lr, totalSteps: 10 });

/** Answers ranking and LR calls from the given functions; anything else is a test bug. */
function optimizerFor(opts: {
  ranking?: (req: CompletionRequest) => string | Error;
  lr?: (req: CompletionRequest) => string | Error;
}) {
  return new ScriptedClient((req) => {
    if (req.system.startsWith(SIGNATURES.ranking) && opts.ranking) return opts.ranking(req);
    if (req.system.startsWith(SIGNATURES.lrAutonomous) && opts.lr) return opts.lr(req);
    return new Error(`unexpected call ${req.stage}`);
  });
}

function setup(optimizer: ScriptedClient, plan: Partial<RunPlan> = {}, cfg = testConfig()) {
  const deps = testDeps({ optimizer, config: cfg });
  const warnings: string[] = [];
  deps.logger = { info: () => {}, warn: (m) => warnings.push(m) };
  return { ctx: testContext(deps, plan), deps, warnings };
}

const input = (merged: Patch, scheduler: Scheduler, extra: Partial<SelectInput> = {}): SelectInput => ({
  stepDir: "steps/step_0001",
  skill: "# Skill\n",
  merged,
  scheduler,
  evidence: { rolloutN: 4, rolloutHard: 0.25, rolloutSoft: 0.5 },
  stepBuffer: "",
  metaBlock: "",
  ...extra,
});

describe("selectEdits: fixed budget", () => {
  it("passes a pool within the budget through unchanged, without a call", async () => {
    const optimizer = optimizerFor({});
    const { ctx } = setup(optimizer);
    const merged = pool(3);
    const r = await selectEdits(ctx, input(merged, constant(3)));
    expect(r.ranked).toEqual(merged);
    expect(r.budget).toBe(3);
    expect(r.rankingCalled).toBe(false);
    expect(optimizer.calls).toHaveLength(0);
  });

  it("ranks a pool over the budget and keeps the selected items in the given order", async () => {
    const optimizer = optimizerFor({ ranking: () => JSON.stringify({ reasoning: "r", selected_indices: [2, 0, 1] }) });
    const { ctx } = setup(optimizer);
    const r = await selectEdits(ctx, input(pool(4), constant(2), { metaBlock: "## Optimizer Meta Skill\nmemo\n" }));
    expect(r.ranked).toEqual({
      reasoning: "merged [optimizer-ranked: selected 2/4 edits]",
      edits: [edit("e2"), edit("e0")],
      ranking_details: { reasoning: "r", selected_indices: [2, 0, 1] },
    });
    expect(r.fallback).toBe(false);
    const call = optimizer.calls[0]!;
    expect(call).toMatchObject({ stage: "ranking", maxTokens: 16384 });
    const user = userOf(call);
    expect(user.startsWith("## Optimizer Meta Skill")).toBe(true);
    expect(user).toContain("## Edits Pool (4 edits, budget=2)");
    expect(user).toContain("[0] op=append  content='e0'\n[1] op=append  content='e1'");
  });

  it("reads integral floats such as 1.0 as floats and skips them, as json.loads does", async () => {
    const text = '```json\n{"reasoning": "r 2.0", "selected_indices": [1.0, 3, 2e0, true]}\n```';
    const optimizer = optimizerFor({ ranking: () => text });
    const { ctx } = setup(optimizer);
    const r = await selectEdits(ctx, input(pool(5), constant(3)));
    expect(r.ranked.edits).toEqual([edit("e3"), edit("e1")]);
    expect(r.ranked.ranking_details).toEqual({ reasoning: "r 2.0", selected_indices: [1, 3, 2, true] });
  });

  it.each([
    ["unparseable text", (): string | Error => "I like them all"],
    ["only float indices", (): string | Error => '{"selected_indices": [0.0, 1.0]}'],
    ["no valid index", () => JSON.stringify({ selected_indices: [9, -1, "0", 1.5] })],
    ["a missing list", () => JSON.stringify({ reasoning: "r" })],
    ["an exception", (): string | Error => new Error("rate limited")],
  ] as const)("falls back to the first budget items on %s", async (_name, ranking) => {
    const optimizer = optimizerFor({ ranking });
    const { ctx, warnings } = setup(optimizer);
    const r = await selectEdits(ctx, input(pool(5), constant(2)));
    expect(r.ranked).toEqual({ reasoning: "merged [fallback truncated 5->2 edits]", edits: [edit("e0"), edit("e1")] });
    expect(r.fallback).toBe(true);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it("labels rewrite-mode reasoning with suggestions and uses the rewrite ranking prompt", async () => {
    const optimizer = optimizerFor({ ranking: () => JSON.stringify({ selected_indices: [1] }) });
    const cfg = testConfig({ optimizer: { skill_update_mode: "rewrite_from_suggestions" } });
    const { ctx } = setup(optimizer, { updateMode: "rewrite_from_suggestions" }, cfg);
    const merged = {
      reasoning: "m",
      revise_suggestions: [
        { type: "clarify", title: "a", instruction: "x" },
        { type: "add_rule", title: "b", instruction: "y" },
      ],
    };
    const r = await selectEdits(ctx, input(merged, constant(1)));
    expect(r.ranked.reasoning).toBe("m [optimizer-ranked: selected 1/2 suggestions]");
    expect(r.ranked.revise_suggestions).toEqual([merged.revise_suggestions[1]]);
    expect(optimizer.calls[0]!.system).toContain("rewrite utility");
    const fb = optimizerFor({ ranking: () => "nope" });
    const r2 = await selectEdits(
      setup(fb, { updateMode: "rewrite_from_suggestions" }, cfg).ctx,
      input(merged, constant(1)),
    );
    expect(r2.ranked.reasoning).toBe("m [fallback truncated 2->1 suggestions]");
  });

  it("steps the scheduler once per select in fixed and none modes", async () => {
    for (const lrControl of ["fixed", "none"] as const) {
      const scheduler = createScheduler("linear", { maxLr: 4, minLr: 2, totalSteps: 8 });
      const { ctx } = setup(optimizerFor({ ranking: () => JSON.stringify({ selected_indices: [0, 1, 2, 3] }) }), {
        lrControl,
      });
      const budgets: Array<number | null> = [];
      for (let i = 0; i < 3; i++) budgets.push((await selectEdits(ctx, input(pool(2), scheduler))).budget);
      expect(scheduler.state().current_step).toBe(3);
      expect(budgets).toEqual([4, 4, 3]);
    }
  });

  it("full-rewrite mode skips select: no budget, no call, no scheduler step", async () => {
    const optimizer = optimizerFor({});
    const cfg = testConfig({ optimizer: { skill_update_mode: "full_rewrite_minibatch" } });
    const { ctx } = setup(optimizer, { updateMode: "full_rewrite_minibatch", lrControl: "none" }, cfg);
    const scheduler = constant(1);
    const merged = {
      reasoning: "m",
      skill_candidates: [{ new_skill: "# A" }, { new_skill: "# B" }, { new_skill: "# C" }],
    };
    const r = await selectEdits(ctx, input(merged, scheduler));
    expect(r).toMatchObject({ ranked: merged, budget: null, rankingCalled: false });
    expect(scheduler.state().current_step).toBe(0);
    expect(optimizer.calls).toHaveLength(0);
  });
});

describe("selectEdits: autonomous learning rate", () => {
  const cfg = testConfig({ optimizer: { lr_control_mode: "autonomous" } });

  it("records the decision, clamps it to the pool, and does not step the scheduler", async () => {
    const answer = JSON.stringify({
      learning_rate: 10,
      reasoning: "broad failures",
      confidence: "high",
      risk_notes: ["many edits"],
    });
    const optimizer = optimizerFor({ lr: () => answer });
    const { ctx } = setup(optimizer, { lrControl: "autonomous" }, cfg);
    const scheduler = constant(2);
    const r = await selectEdits(ctx, input(pool(3), scheduler, { stepBuffer: "### Step 1: REJECT (2/4 failed)" }));
    expect(r.lrDecision).toEqual({
      learning_rate: 3,
      raw_learning_rate: 10,
      available_update_items: 3,
      clamped: true,
      fallback: false,
      reasoning: "broad failures",
      confidence: "high",
      risk_notes: ["many edits"],
      raw_response: answer,
    });
    expect(r.budget).toBe(3);
    expect(r.ranked).toEqual(pool(3));
    expect(scheduler.state().current_step).toBe(0);
    expect(optimizer.calls.map((c) => c.stage)).toEqual(["lr_autonomous"]);
    const user = userOf(optimizer.calls[0]!);
    expect(user).toContain(
      "rollout_n=4\nrollout_hard=0.250000\nrollout_soft=0.500000\nproposed_update_items=3\nupdate_item_type=edits",
    );
    expect(user).toContain("[2] op=append  content='e2'");
    expect(user.trimEnd().endsWith("### Step 1: REJECT (2/4 failed)")).toBe(true);
  });

  it("an unusable decision falls back to 0, and ranking still lets one edit through", async () => {
    const optimizer = optimizerFor({
      lr: () => JSON.stringify({ learning_rate: "all of them", reasoning: "?" }),
      ranking: () => JSON.stringify({ selected_indices: [1, 2] }),
    });
    const { ctx } = setup(optimizer, { lrControl: "autonomous" }, cfg);
    const r = await selectEdits(ctx, input(pool(3), constant(2)));
    expect(r.lrDecision).toMatchObject({ learning_rate: 0, raw_learning_rate: 0, clamped: false, fallback: true });
    expect(r.budget).toBe(0);
    expect(r.ranked.edits).toEqual([edit("e1")]);
    expect(r.ranked.reasoning).toBe("merged [optimizer-ranked: selected 1/3 edits]");
  });

  it("a failed call falls back to 0 and records an error", async () => {
    const optimizer = optimizerFor({ lr: () => new Error("secret body"), ranking: () => "no" });
    const { ctx } = setup(optimizer, { lrControl: "autonomous" }, cfg);
    const r = await selectEdits(ctx, input(pool(2), constant(2)));
    expect(r.lrDecision).toMatchObject({ learning_rate: 0, fallback: true, raw_response: null });
    expect(typeof r.lrDecision!.error).toBe("string");
    expect(String(r.lrDecision!.error)).not.toContain("secret body");
    expect(r.ranked).toEqual({ reasoning: "merged [fallback truncated 2->0 edits]", edits: [] });
  });

  it("a decision below the pool is not clamped", async () => {
    const optimizer = optimizerFor({
      lr: () => JSON.stringify({ learning_rate: "1" }),
      ranking: () => JSON.stringify({ selected_indices: [2] }),
    });
    const { ctx } = setup(optimizer, { lrControl: "autonomous" }, cfg);
    const r = await selectEdits(ctx, input(pool(3), constant(2)));
    expect(r.lrDecision).toMatchObject({
      learning_rate: 1,
      raw_learning_rate: 1,
      clamped: false,
      fallback: false,
      reasoning: "",
      confidence: "",
      risk_notes: [],
    });
    expect(r.ranked.edits).toEqual([edit("e2")]);
  });
});

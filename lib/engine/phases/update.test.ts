import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../ports";
import { ScriptedClient, testConfig, testContext, testDeps } from "../testing";
import type { Patch, UpdateMode } from "../types";
import { buildCandidate } from "./update";

const SKILL = "# Skill\n\n## Rules\n- Be careful.\n";
const userOf = (req: CompletionRequest): string => String(req.messages[0]?.content ?? "");

function setup(optimizer: ScriptedClient, mode: UpdateMode, model: Record<string, unknown> = {}) {
  const cfg = testConfig({ optimizer: { skill_update_mode: mode }, model: { backend: "sim", ...model } });
  const deps = testDeps({ optimizer, config: cfg });
  return { ctx: testContext(deps, { updateMode: mode }), deps };
}

const run = (ctx: ReturnType<typeof setup>["ctx"], ranked: Patch, stepBuffer = "") =>
  buildCandidate(ctx, { stepDir: "steps/step_0001", skill: SKILL, ranked, stepBuffer });

const noCalls = () => new ScriptedClient(() => new Error("no call expected"));

describe("update: patch mode", () => {
  it("applies ranked.edits in order and reports each one", async () => {
    const optimizer = noCalls();
    const { ctx } = setup(optimizer, "patch");
    const r = await run(ctx, {
      reasoning: "r",
      edits: [
        { op: "replace", target: "- Be careful.", content: "- Be precise." },
        { op: "append", content: "- Give units." },
        { op: "delete", target: "not in the skill" },
      ],
    });
    expect(r.candidate).toBe("# Skill\n\n## Rules\n- Be precise.\n\n- Give units.\n");
    expect(r.applyReport!.map((row) => row.status)).toEqual([
      "applied_replace",
      "applied_append",
      "skipped_delete_target_not_found",
    ]);
    expect(r.rewriteResult).toBeNull();
    expect(optimizer.calls).toHaveLength(0);
  });

  it("a patch without an edits list leaves the skill as it is", async () => {
    const { ctx } = setup(noCalls(), "patch");
    const r = await run(ctx, { reasoning: "r", edits: "nothing" });
    expect(r.candidate).toBe(SKILL);
    expect(r.applyReport).toEqual([]);
  });
});

describe("update: rewrite from suggestions", () => {
  const ranked: Patch = {
    reasoning: "r",
    revise_suggestions: [
      { type: "add_rule", title: "Units", instruction: "Always give units" },
      { type: "clarify", title: "Short", instruction: "Answer briefly" },
    ],
  };

  it("returns null without a call when there are no suggestions", async () => {
    const optimizer = noCalls();
    const { ctx } = setup(optimizer, "rewrite_from_suggestions");
    expect(await run(ctx, { reasoning: "r", revise_suggestions: [] })).toEqual({
      candidate: null,
      applyReport: null,
      rewriteResult: null,
    });
    expect(await run(ctx, { reasoning: "r", revise_suggestions: ["not an object"] })).toMatchObject({
      candidate: null,
    });
    expect(optimizer.calls).toHaveLength(0);
  });

  it.each([
    ["a blank new_skill", JSON.stringify({ reasoning: "r", new_skill: "  \n\t " })],
    ["a non-string new_skill", JSON.stringify({ reasoning: "r", new_skill: ["# A"] })],
    ["a missing new_skill", JSON.stringify({ reasoning: "r", change_summary: ["x"] })],
    ["prose", "I would rewrite it like this: be better."],
    ["an exception", new Error("timeout")],
  ] as const)("returns null for %s", async (_name, answer) => {
    const { ctx, deps } = setup(new ScriptedClient(() => answer), "rewrite_from_suggestions");
    expect((await run(ctx, ranked)).candidate).toBeNull();
    expect(await deps.store.getJson("steps/step_0001/rewrite_result.json")).toBeUndefined();
  });

  it("right-trims the new skill and adds one newline, defaults change_summary to [], and saves the result", async () => {
    const optimizer = new ScriptedClient(() =>
      JSON.stringify({
        reasoning: "merged two",
        new_skill: "# New\n\n- Give units.  \n\n\n",
        change_summary: "not a list",
      }),
    );
    const { ctx, deps } = setup(optimizer, "rewrite_from_suggestions");
    const r = await run(ctx, ranked, "### Step 1: REJECT (1/2 failed)");
    expect(r.candidate).toBe("# New\n\n- Give units.\n");
    expect(r.applyReport).toBeNull();
    expect(r.rewriteResult).toEqual({
      reasoning: "merged two",
      new_skill: "# New\n\n- Give units.\n",
      change_summary: [],
    });
    expect(await deps.store.getJson("steps/step_0001/rewrite_result.json")).toEqual(r.rewriteResult);
    const call = optimizer.calls[0]!;
    expect(call.stage).toBe("rewrite");
    expect(call.maxTokens).toBe(64000);
    expect(userOf(call)).toContain("## Selected Revise Suggestions (2 total)");
    expect(userOf(call)).toContain('"instruction": "Always give units"');
    expect(userOf(call)).toContain("## Previous Steps in This Epoch\n### Step 1: REJECT (1/2 failed)");
  });

  it("keeps a change_summary list", async () => {
    const optimizer = new ScriptedClient(() => JSON.stringify({ new_skill: "# N", change_summary: ["added units"] }));
    const { ctx } = setup(optimizer, "rewrite_from_suggestions");
    expect((await run(ctx, ranked)).rewriteResult!.change_summary).toEqual(["added units"]);
  });

  it.each([
    [{ rewrite_reasoning_effort: "high", reasoning_effort: "low" }, "high"],
    [{ rewrite_reasoning_effort: "", reasoning_effort: "low" }, "low"],
    [{ rewrite_reasoning_effort: "  ", reasoning_effort: "" }, null],
    [{ rewrite_max_completion_tokens: 1234, reasoning_effort: "medium" }, "medium"],
  ])("passes the rewrite reasoning effort, else the global one (%j → %s)", async (model, effort) => {
    const optimizer = new ScriptedClient(() => JSON.stringify({ new_skill: "# N" }));
    const { ctx } = setup(optimizer, "rewrite_from_suggestions", model);
    await run(ctx, ranked);
    expect(optimizer.calls[0]!.reasoningEffort).toBe(effort);
    expect(optimizer.calls[0]!.maxTokens).toBe(
      (model as { rewrite_max_completion_tokens?: number }).rewrite_max_completion_tokens ?? 64000,
    );
  });
});

describe("update: full rewrite", () => {
  it("takes the first candidate with a non-blank new_skill, without a call", async () => {
    const optimizer = noCalls();
    const { ctx, deps } = setup(optimizer, "full_rewrite_minibatch");
    const chosen = {
      title: "B",
      change_summary: ["one", "two"],
      source_type: "mixed",
      new_skill: "# B\n- rule   \n\n",
    };
    const ranked: Patch = {
      reasoning: "merged candidates",
      skill_candidates: [
        "not an object",
        { title: "A", new_skill: "   " },
        { title: "N", new_skill: 42 },
        chosen,
        { title: "C", new_skill: "# C" },
      ],
    };
    const r = await run(ctx, ranked);
    expect(r.candidate).toBe("# B\n- rule\n");
    expect(r.applyReport).toBeNull();
    expect(r.rewriteResult).toEqual({
      reasoning: "merged candidates",
      change_summary: ["one", "two"],
      title: "B",
      source_type: "mixed",
    });
    expect(await deps.store.getJson("steps/step_0001/full_rewrite_result.json")).toEqual({
      selected_candidate: chosen,
      merged_patch: ranked,
    });
    expect(optimizer.calls).toHaveLength(0);
  });

  it("returns null when no candidate has a new skill", async () => {
    const { ctx } = setup(noCalls(), "full_rewrite_minibatch");
    expect(
      (await run(ctx, { reasoning: "r", skill_candidates: [{ title: "A", new_skill: "" }, { title: "B" }] })).candidate,
    ).toBeNull();
    expect((await run(ctx, { reasoning: "r", skill_candidates: [] })).candidate).toBeNull();
  });

  it("defaults a missing change summary to []", async () => {
    const { ctx } = setup(noCalls(), "full_rewrite_minibatch");
    const r = await run(ctx, { reasoning: "r", skill_candidates: [{ new_skill: "# X", change_summary: "text" }] });
    expect(r.rewriteResult).toEqual({ reasoning: "r", change_summary: [], title: "", source_type: "" });
  });
});

describe("update: rewrites keep the protected regions", () => {
  const PROTECTED_SKILL = [
    "# Skill",
    "",
    "- Be careful.",
    "",
    "<!-- SLOW_UPDATE_START -->",
    "Prefer short answers.",
    "<!-- SLOW_UPDATE_END -->",
    "",
    "<!-- APPENDIX_START -->",
    "## Execution Notes Appendix",
    "- Check units twice.",
    "<!-- APPENDIX_END -->",
    "",
  ].join("\n");
  const TAIL = PROTECTED_SKILL.slice(PROTECTED_SKILL.indexOf("<!-- SLOW_UPDATE_START"));
  const runOn = (ctx: ReturnType<typeof setup>["ctx"], ranked: Patch) =>
    buildCandidate(ctx, { stepDir: "steps/step_0001", skill: PROTECTED_SKILL, ranked, stepBuffer: "" });

  it("re-attaches both regions when the rewrite from suggestions drops them", async () => {
    const optimizer = new ScriptedClient(() => JSON.stringify({ new_skill: "# Better\n\n- Be precise.\n" }));
    const { ctx } = setup(optimizer, "rewrite_from_suggestions");
    const r = await runOn(ctx, { reasoning: "r", revise_suggestions: [{ type: "t", title: "x", instruction: "y" }] });
    expect(r.candidate).toBe(`# Better\n\n- Be precise.\n\n${TAIL}`);
  });

  it("replaces regions the model rewrote or moved with the skill's own, in a full rewrite", async () => {
    const { ctx } = setup(noCalls(), "full_rewrite_minibatch");
    const newSkill = [
      "<!-- APPENDIX_START -->\n## Execution Notes Appendix\n- Invented note.\n<!-- APPENDIX_END -->",
      "# Rewritten",
      "<!-- SLOW_UPDATE_START -->\nChanged guidance.\n<!-- SLOW_UPDATE_END -->",
      "- Rule.",
      "stray <!-- APPENDIX_END --> marker",
    ].join("\n\n\n");
    const r = await runOn(ctx, { reasoning: "r", skill_candidates: [{ title: "A", new_skill: newSkill }] });
    expect(r.candidate).toBe(`# Rewritten\n\n- Rule.\n\nstray  marker\n\n${TAIL}`);
    expect(r.candidate!.match(/SLOW_UPDATE_START/g)).toHaveLength(1);
    expect(r.candidate!.match(/APPENDIX_START/g)).toHaveLength(1);
  });

  it("adds nothing when the skill has no protected regions", async () => {
    const { ctx } = setup(noCalls(), "full_rewrite_minibatch");
    const r = await run(ctx, { reasoning: "r", skill_candidates: [{ new_skill: "# X\n\n\n- y  \n\n" }] });
    expect(r.candidate).toBe("# X\n\n\n- y\n");
  });
});

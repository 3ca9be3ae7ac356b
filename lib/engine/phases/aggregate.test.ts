import { describe, expect, it } from "vitest";
import type { RunConfig } from "../../contracts/run-config";
import type { RunContext } from "../context";
import type { CompletionRequest } from "../ports";
import { SIGNATURES } from "../prompts/common";
import { ScriptedClient, testConfig, testContext, testDeps } from "../testing";
import type { Patch, UpdateMode } from "../types";
import { mergePatches, type MergeInput } from "./aggregate";

const SECRET = "sk-live-SECRET-provider-body-123";
const userOf = (req: CompletionRequest): string => String(req.messages[0]?.content ?? "");

const edit = (content: string, extra: Record<string, unknown> = {}) => ({ op: "append", content, ...extra });
const patch = (...contents: string[]): Patch => ({
  reasoning: `p:${contents.join("+")}`,
  edits: contents.map((c) => edit(c)),
});

/** The JSON array of patches at the end of a level-merge prompt. */
function chunkOf(req: CompletionRequest): Patch[] {
  const user = userOf(req);
  return JSON.parse(user.slice(user.indexOf("[\n"))) as Patch[];
}

/** A merger that concatenates the chunk's items (keeping every edit) and labels its reasoning. */
function concatMerger(
  opts: { final?: (req: CompletionRequest) => string | Error; level?: (req: CompletionRequest) => string | Error } = {},
) {
  return new ScriptedClient((req) => {
    if (req.system.startsWith(SIGNATURES.mergeFinal)) {
      if (opts.final) return opts.final(req);
      return JSON.stringify({ reasoning: "final", edits: [edit("final-merged")] });
    }
    if (opts.level) return opts.level(req);
    const chunk = chunkOf(req);
    const items = chunk.flatMap((p) => (p.edits as Record<string, unknown>[]).map((e) => ({ ...e, merge_level: 99 })));
    return JSON.stringify({ reasoning: `merged(${chunk.map((p) => p.reasoning).join(",")})`, edits: items });
  });
}

function setup(optimizer: ScriptedClient, opts: { mergeBatch?: number; mode?: UpdateMode; cfg?: RunConfig } = {}) {
  const cfg = opts.cfg ?? testConfig();
  // The schema refuses merge_batch_size < 2; the engine must still clamp a value set after parsing.
  if (opts.mergeBatch !== undefined) cfg.gradient.merge_batch_size = opts.mergeBatch;
  const deps = testDeps({ optimizer, config: cfg });
  const warnings: string[] = [];
  deps.logger = { info: () => {}, warn: (m) => warnings.push(m) };
  const ctx: RunContext = testContext(deps, opts.mode ? { updateMode: opts.mode } : {});
  return { ctx, deps, warnings };
}

const input = (failure: Patch[], success: Patch[] = [], extra: Partial<MergeInput> = {}): MergeInput => ({
  stepDir: "steps/step_0001",
  skill: "# Skill\n- Be careful.\n",
  failure,
  success,
  metaBlock: "",
  ...extra,
});

const contents = (p: Patch) => (p.edits as Array<{ content: string }>).map((e) => e.content);

describe("hierarchical merge", () => {
  it.each([1, 0])("terminates with merge_batch_size %i (clamped to 2) and keeps every edit", async (size) => {
    const optimizer = concatMerger();
    const { ctx } = setup(optimizer, { mergeBatch: size });
    const out = await mergePatches(ctx, input([patch("a"), patch("b"), patch("c"), patch("d"), patch("e")]));
    expect(contents(out.merged)).toEqual(["a", "b", "c", "d", "e"]);
    // Level 1: [a,b] [c,d] [e]; level 2: [ab,cd] [e]; level 3: [abcd, e].
    const merges = optimizer.byStage("merge");
    expect(merges.map((c) => chunkOf(c).map((p) => p.reasoning))).toEqual([
      ["p:a", "p:b"],
      ["p:c", "p:d"],
      ["merged(p:a,p:b)", "merged(p:c,p:d)"],
      ["merged(merged(p:a,p:b),merged(p:c,p:d))", "p:e"],
    ]);
    expect(merges.map((c) => /merge level (\d+)/.exec(userOf(c))![1])).toEqual(["1", "1", "2", "3"]);
    expect(out.fallbacks).toBe(0);
  });

  it("merges consecutive chunks of merge_batch_size in order, passing single leftovers through", async () => {
    const optimizer = concatMerger();
    const { ctx, deps } = setup(optimizer, { mergeBatch: 3 });
    const out = await mergePatches(ctx, input(["a", "b", "c", "d", "e", "f", "g"].map((c) => patch(c))));
    const merges = optimizer.byStage("merge");
    expect(merges.map((c) => chunkOf(c).map((p) => p.reasoning))).toEqual([
      ["p:a", "p:b", "p:c"],
      ["p:d", "p:e", "p:f"],
      ["merged(p:a,p:b,p:c)", "merged(p:d,p:e,p:f)", "p:g"],
    ]);
    expect(userOf(merges[0]!)).toContain("## Patches to merge (3 total, merge level 1)");
    expect(userOf(merges[2]!)).toContain("## Patches to merge (3 total, merge level 2)");
    expect(merges.every((c) => c.system.startsWith(SIGNATURES.mergeFailure) && c.maxTokens === 16384)).toBe(true);
    expect(contents(out.merged)).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
    // Each merge call is memoised under its level and chunk index.
    for (const key of ["merge_failure_L1_C0", "merge_failure_L1_C1", "merge_failure_L2_C0"]) {
      expect(await deps.store.getJson(`steps/step_0001/calls/${key}.json`)).toBeDefined();
    }
  });

  it("a successful merge overwrites merge_level on every item with its level", async () => {
    const optimizer = concatMerger();
    const { ctx } = setup(optimizer, { mergeBatch: 2 });
    const out = await mergePatches(ctx, input([patch("a"), { edits: [edit("b", { merge_level: 5 })] }, patch("c")]));
    // Level 1 sets 1 on a, b; level 2 merges [ab, c] and sets 2 on all.
    expect((out.merged.edits as Array<{ merge_level: number }>).map((e) => e.merge_level)).toEqual([2, 2, 2]);
  });

  it("returns a single patch unchanged without a call", async () => {
    const optimizer = concatMerger();
    const { ctx } = setup(optimizer);
    const only = { reasoning: "solo", edits: [edit("x", { support_count: 3 })], extra: true };
    const out = await mergePatches(ctx, input([only]));
    expect(out.merged).toEqual(only);
    expect(optimizer.calls).toHaveLength(0);
  });

  it("returns 'no updates from either group' when both groups are empty", async () => {
    const optimizer = concatMerger();
    const { ctx } = setup(optimizer);
    expect((await mergePatches(ctx, input([], []))).merged).toEqual({
      reasoning: "no updates from either group",
      edits: [],
    });
    // Patches whose payload is empty count as empty groups.
    expect((await mergePatches(ctx, input([{ reasoning: "r", edits: [] }], []))).merged).toEqual({
      reasoning: "no updates from either group",
      edits: [],
    });
    expect(optimizer.calls).toHaveLength(0);
  });

  it("returns the failure group alone when the success group is empty, and vice versa", async () => {
    const optimizer = concatMerger();
    const { ctx } = setup(optimizer);
    expect((await mergePatches(ctx, input([patch("f")], []))).merged).toEqual(patch("f"));
    const out = await mergePatches(ctx, input([], [patch("s1"), patch("s2")]));
    expect(contents(out.merged)).toEqual(["s1", "s2"]);
    expect(optimizer.calls.map((c) => c.system.split("\n", 1)[0])).toEqual([SIGNATURES.mergeSuccess]);
  });

  it("runs the final merge once when both groups have items and returns its answer", async () => {
    const optimizer = concatMerger();
    const { ctx, deps } = setup(optimizer);
    const out = await mergePatches(
      ctx,
      input([patch("f1", "f2")], [patch("s1")], { metaBlock: "## Optimizer Meta Skill\nmemo\n" }),
    );
    expect(out.merged).toEqual({ reasoning: "final", edits: [edit("final-merged")] });
    const final = optimizer.calls.filter((c) => c.system.startsWith(SIGNATURES.mergeFinal));
    expect(final).toHaveLength(1);
    expect(final[0]!.stage).toBe("merge");
    const user = userOf(final[0]!);
    expect(user.startsWith("## Optimizer Meta Skill")).toBe(true);
    expect(user).toContain("Group 1 (failure-driven, high priority): 2 edits");
    expect(user).toContain("Group 2 (success-driven, lower priority): 1 edits");
    expect(await deps.store.getJson("steps/step_0001/calls/merge_final.json")).toBeDefined();
  });
});

describe("merge fallbacks", () => {
  it("an exception falls back to concatenation with merge_level defaulted to the level; the warning hides the error text", async () => {
    const optimizer = concatMerger({ level: () => new Error(`401 Unauthorized: ${SECRET}`) });
    const { ctx, warnings } = setup(optimizer);
    const out = await mergePatches(
      ctx,
      input([patch("a"), { reasoning: "b", edits: [edit("b", { merge_level: 7 })] }]),
    );
    expect(out.merged).toEqual({
      reasoning: "fallback concatenation",
      edits: [edit("a", { merge_level: 1 }), edit("b", { merge_level: 7 })],
    });
    expect(out.fallbacks).toBe(1);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.join("\n")).not.toContain(SECRET);
    expect(warnings.join("\n")).not.toContain("Unauthorized");
  });

  it("a non-JSON answer falls back the same way and warns", async () => {
    const optimizer = concatMerger({ level: () => "I merged them in my head." });
    const { ctx, warnings } = setup(optimizer);
    const out = await mergePatches(ctx, input([patch("a"), patch("b")]));
    expect(out.merged).toEqual({
      reasoning: "fallback concatenation",
      edits: [edit("a", { merge_level: 1 }), edit("b", { merge_level: 1 })],
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("I merged them");
  });

  it.each([
    ["a null payload", JSON.stringify({ reasoning: "r", edits: null })],
    ["a payload with a non-object", JSON.stringify({ reasoning: "r", edits: ["not an object"] })],
    ["a missing payload", JSON.stringify({ reasoning: "r" })],
    ["a JSON array", JSON.stringify([edit("a")])],
  ])("%s falls back to concatenation", async (_name, answer) => {
    const optimizer = concatMerger({ level: () => answer });
    const { ctx } = setup(optimizer);
    const out = await mergePatches(ctx, input([patch("a"), patch("b")]));
    expect(out.merged.reasoning).toBe("fallback concatenation");
    expect(contents(out.merged)).toEqual(["a", "b"]);
  });

  it("fallbacks at level 2 default merge_level to 2 and keep the level-1 values", async () => {
    let n = 0;
    const optimizer = concatMerger({
      level: (req) => {
        n += 1;
        if (n === 1) {
          const items = chunkOf(req).flatMap((p) => p.edits as object[]);
          return JSON.stringify({ reasoning: "m", edits: items });
        }
        return "garbage";
      },
    });
    const { ctx } = setup(optimizer, { mergeBatch: 2 });
    const out = await mergePatches(ctx, input([patch("a"), patch("b"), patch("c")]));
    expect(out.merged).toEqual({
      reasoning: "fallback concatenation",
      edits: [edit("a", { merge_level: 1 }), edit("b", { merge_level: 1 }), edit("c", { merge_level: 2 })],
    });
  });

  it("validates the payload key of the update mode", async () => {
    const optimizer = concatMerger({ level: () => JSON.stringify({ reasoning: "r", edits: [edit("wrong key")] }) });
    const cfg = testConfig({ optimizer: { skill_update_mode: "rewrite_from_suggestions" } });
    const { ctx } = setup(optimizer, { mode: "rewrite_from_suggestions", cfg });
    const s = (title: string) => ({ reasoning: title, revise_suggestions: [{ type: "clarify", title }] });
    const out = await mergePatches(ctx, input([s("t1"), s("t2")]));
    expect(out.merged).toEqual({
      reasoning: "fallback concatenation",
      revise_suggestions: [
        { type: "clarify", title: "t1", merge_level: 1 },
        { type: "clarify", title: "t2", merge_level: 1 },
      ],
    });
  });

  it.each([
    ["an exception", (): string | Error => new Error(`boom ${SECRET}`)],
    ["non-JSON", (): string | Error => "no"],
    ["a null payload", () => JSON.stringify({ reasoning: "r", edits: null })],
    ["a non-object item", () => JSON.stringify({ reasoning: "r", edits: ["not an object"] })],
  ] as const)("a final merge failing with %s gives failure first, then success", async (_name, final) => {
    const optimizer = concatMerger({ final });
    const { ctx, warnings } = setup(optimizer);
    const out = await mergePatches(ctx, input([patch("f1", "f2")], [patch("s1")]));
    expect(out.merged).toEqual({
      reasoning: "fallback: failure first, then success",
      edits: [edit("f1"), edit("f2"), edit("s1")],
    });
    expect(out.fallbacks).toBe(1);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.join("\n")).not.toContain(SECRET);
  });
});

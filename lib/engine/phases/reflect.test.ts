import { describe, expect, it } from "vitest";
import type { RunConfig } from "../../contracts/run-config";
import type { CompletionRequest, CompletionResult, ModelClient } from "../ports";
import { SIGNATURES } from "../prompts/common";
import { metaBlock } from "../prompts/epoch";
import { ScriptedClient, testConfig, testContext, testDeps } from "../testing";
import type { Trajectory, UpdateMode } from "../types";
import { reflect, type ReflectInput } from "./reflect";

const userOf = (req: CompletionRequest): string => String(req.messages[0]?.content ?? "");
const idsIn = (user: string): string[] => [...user.matchAll(/### Trajectory \d+ \(id=([^)]+)\)/g)].map((m) => m[1]!);
const isFailureCall = (req: CompletionRequest) => req.system.startsWith(SIGNATURES.failureAnalyst);

function row(id: string, hard: number, extra: Partial<Trajectory> = {}): Trajectory {
  return {
    id,
    hard,
    soft: hard,
    status: "ok",
    prediction: `pred-${id}`,
    reference: `ref-${id}`,
    failReason: hard ? undefined : `EM=0: wrong ${id}`,
    question: `question ${id}`,
    conversation: [
      { role: "user", content: `ask ${id}` },
      { role: "assistant", content: `answer-text-${id}` },
    ],
    ...extra,
  };
}

/** Answers every analyst call with one edit that names the ids it read, in prompt order. */
function echoAnalyst(): ScriptedClient {
  return new ScriptedClient((req) => {
    const ids = idsIn(userOf(req));
    return JSON.stringify({
      batch_size: ids.length,
      failure_summary: [{ failure_type: "rule_missing", count: ids.length, description: "x" }],
      patch: { reasoning: ids.join(","), edits: [{ op: "append", content: `- ${ids.join(",")}` }] },
    });
  });
}

function setup(opts: { optimizer: ModelClient; cfg?: RunConfig; mode?: UpdateMode }) {
  const deps = testDeps({
    optimizer: opts.optimizer,
    config: opts.cfg ?? testConfig({ gradient: { minibatch_size: 10 } }),
  });
  const ctx = testContext(deps, opts.mode ? { updateMode: opts.mode } : {});
  return { deps, ctx };
}

function input(results: Trajectory[], extra: Partial<ReflectInput> = {}): ReflectInput {
  return {
    dir: "steps/step_0001",
    results,
    skill: "# Skill\n- Be careful.\n",
    seed: 17,
    stepBuffer: "",
    metaBlock: "",
    ...extra,
  };
}

describe("reflect: failure/success split", () => {
  it("sends hard 0 to the failure analyst, fractional hard to the success analyst, tiny positive hard to both, and never errors or timeouts", async () => {
    const optimizer = echoAnalyst();
    const { ctx } = setup({ optimizer });
    const results = [
      row("zero", 0),
      row("one", 1),
      row("half", 0.5),
      row("tiny", 1e-12),
      row("err", 0, { status: "error", failReason: "error: boom" }),
      row("slow", 0, { status: "timeout", failReason: "timeout: stalled" }),
    ];
    await reflect(ctx, input(results));
    const fail = optimizer.calls.filter(isFailureCall);
    const succ = optimizer.calls.filter((c) => c.system.startsWith(SIGNATURES.successAnalyst));
    expect(fail).toHaveLength(1);
    expect(succ).toHaveLength(1);
    expect(new Set(idsIn(userOf(fail[0]!)))).toEqual(new Set(["zero", "tiny"]));
    expect(new Set(idsIn(userOf(succ[0]!)))).toEqual(new Set(["one", "half", "tiny"]));
    const all = optimizer.calls.map(userOf).join("\n");
    expect(all).not.toContain("id=err");
    expect(all).not.toContain("id=slow");
  });

  it("makes no call at all when every row errored or timed out", async () => {
    const optimizer = echoAnalyst();
    const { ctx } = setup({ optimizer });
    const out = await reflect(ctx, input([row("a", 0, { status: "error" }), row("b", 1, { status: "timeout" })]));
    expect(optimizer.calls).toHaveLength(0);
    expect(out).toEqual({ raw: [], sources: [], nInvalid: 0 });
  });

  it("failure_only skips the success analysts", async () => {
    const optimizer = echoAnalyst();
    const { ctx } = setup({ optimizer, cfg: testConfig({ gradient: { minibatch_size: 10, failure_only: true } }) });
    const out = await reflect(ctx, input([row("a", 0), row("b", 1), row("c", 1)]));
    expect(optimizer.calls).toHaveLength(1);
    expect(isFailureCall(optimizer.calls[0]!)).toBe(true);
    expect(out.raw.map((r) => r.source_type)).toEqual(["failure"]);
  });
});

describe("reflect: seeded minibatches", () => {
  // CPython: random.Random(17).shuffle(['f0',…,'f6']) → ['f5','f0','f1','f6','f2','f3','f4']
  //          random.Random(18).shuffle(['s0',…,'s4']) → ['s3','s4','s2','s0','s1']
  const failIds = ["f0", "f1", "f2", "f3", "f4", "f5", "f6"];
  const succIds = ["s0", "s1", "s2", "s3", "s4"];
  const interleaved = (): Trajectory[] => {
    const rows: Trajectory[] = [];
    for (let i = 0; i < 7; i++) {
      rows.push(row(failIds[i]!, 0));
      if (i < 5) rows.push(row(succIds[i]!, 1));
    }
    return rows;
  };
  const expected = ["f5,f0,f1", "f6,f2,f3", "f4", "s3,s4,s2", "s0,s1"];

  it("chunks the PyRandom(seed) failure shuffle and the PyRandom(seed+1) success shuffle into groups of M", async () => {
    const optimizer = echoAnalyst();
    const { ctx, deps } = setup({ optimizer, cfg: testConfig({ gradient: { minibatch_size: 3 } }) });
    const out = await reflect(ctx, input(interleaved()));
    expect(optimizer.calls.map((c) => idsIn(userOf(c)).join(","))).toEqual(expected);
    expect(out.raw.map((r) => r.patch.reasoning)).toEqual(expected);
    expect(out.raw.map((r) => r.source_type)).toEqual(["failure", "failure", "failure", "success", "success"]);
    expect(out.nInvalid).toBe(0);
    // One patch file per minibatch, 3-digit index per kind.
    for (const [tag, ids] of [
      ["minibatch_fail_000", "f5,f0,f1"],
      ["minibatch_fail_002", "f4"],
      ["minibatch_succ_001", "s0,s1"],
    ] as const) {
      expect(
        (await deps.store.getJson<{ patch: { reasoning: string } }>(`steps/step_0001/patches/${tag}.json`))!.patch
          .reasoning,
      ).toBe(ids);
    }
    // The heading counts the minibatch.
    expect(userOf(optimizer.calls[2]!)).toContain("## Failed Trajectories (1 total)");
    expect(userOf(optimizer.calls[3]!)).toContain("## Successful Trajectories (3 total)");
  });

  it("keeps the results in minibatch-index order, failures first, whatever order the calls finish in", async () => {
    // Later minibatches answer first (deliberate deviation: index order, not completion order).
    let n = 0;
    const inner = echoAnalyst();
    const slowFirst: ModelClient = {
      backend: "test",
      model: "test",
      async complete(req: CompletionRequest): Promise<CompletionResult> {
        const delay = (10 - n++) * 4;
        await new Promise((r) => setTimeout(r, delay));
        return inner.complete(req);
      },
    };
    const { ctx } = setup({
      optimizer: slowFirst,
      cfg: testConfig({ gradient: { minibatch_size: 3, analyst_workers: 8 } }),
    });
    const out = await reflect(ctx, input(interleaved()));
    expect(out.raw.map((r) => r.patch.reasoning)).toEqual(expected);
  });

  it("shuffles with the batch seed before chunking", async () => {
    // CPython: random.Random(5).shuffle(['a','b','c','d','e']) → ['a','b','d','c','e']
    const optimizer = echoAnalyst();
    const { ctx } = setup({ optimizer, cfg: testConfig({ gradient: { minibatch_size: 2, failure_only: true } }) });
    await reflect(
      ctx,
      input(
        ["a", "b", "c", "d", "e"].map((id) => row(id, 0)),
        { seed: 5 },
      ),
    );
    expect(optimizer.calls.map((c) => idsIn(userOf(c)).join(","))).toEqual(["a,b", "d,c", "e"]);
  });
});

describe("reflect: calls", () => {
  it("makes no call for a minibatch whose trajectories have no conversation", async () => {
    const optimizer = echoAnalyst();
    const { ctx } = setup({ optimizer, cfg: testConfig({ gradient: { minibatch_size: 10 } }) });
    const out = await reflect(ctx, input([row("a", 0, { conversation: [] }), row("b", 0, { conversation: [] })]));
    expect(optimizer.calls).toHaveLength(0);
    expect(out).toEqual({ raw: [], sources: [], nInvalid: 0 });
  });

  it("numbers trajectories over the whole minibatch, leaving gaps for skipped items, and counts them all", async () => {
    const optimizer = echoAnalyst();
    const { ctx } = setup({ optimizer, cfg: testConfig({ gradient: { minibatch_size: 10 } }) });
    // CPython: random.Random(5).shuffle(['a','b']) → ['a','b'], so b is item 2 of the minibatch.
    await reflect(ctx, input([row("a", 0, { conversation: [] }), row("b", 0)], { seed: 5 }));
    const user = userOf(optimizer.calls[0]!);
    expect(user).toContain("## Failed Trajectories (2 total)");
    expect(idsIn(user)).toEqual(["b"]);
    expect(user).toContain("### Trajectory 2 (id=b)");
    expect(user).not.toContain("id=a)");
  });

  it("counts analyst answers that cannot be used as invalid and keeps the others", async () => {
    const optimizer = new ScriptedClient((req) => {
      const ids = idsIn(userOf(req));
      if (ids.includes("b")) return "sorry, no JSON today";
      if (ids.includes("c")) return new Error("provider exploded");
      return JSON.stringify({ batch_size: 1, patch: { reasoning: "ok", edits: [] } });
    });
    const { ctx } = setup({ optimizer, cfg: testConfig({ gradient: { minibatch_size: 1, failure_only: true } }) });
    const out = await reflect(ctx, input([row("a", 0), row("b", 0), row("c", 0)]));
    expect(out.raw).toHaveLength(1);
    expect(out.nInvalid).toBe(2);
  });

  it("uses the analyst stage with 16384 tokens, 64000 in full-rewrite mode", async () => {
    const a = echoAnalyst();
    await reflect(setup({ optimizer: a }).ctx, input([row("a", 0)]));
    expect(a.calls[0]).toMatchObject({ role: "optimizer", stage: "analyst", maxTokens: 16384 });
    const b = echoAnalyst();
    const cfg = testConfig({
      optimizer: { skill_update_mode: "full_rewrite_minibatch" },
      gradient: { minibatch_size: 10 },
    });
    await reflect(setup({ optimizer: b, cfg, mode: "full_rewrite_minibatch" }).ctx, input([row("a", 0)]));
    expect(b.calls[0]).toMatchObject({ stage: "analyst", maxTokens: 64000 });
  });

  it("reuses the memoised answers on a second reflect with the same store (zero new calls)", async () => {
    const optimizer = echoAnalyst();
    const cfg = testConfig({ gradient: { minibatch_size: 2 } });
    const deps = testDeps({ optimizer, config: cfg });
    const rows = [row("a", 0), row("b", 0), row("c", 0), row("d", 1)];
    const first = await reflect(testContext(deps), input(rows));
    const callsAfterFirst = optimizer.calls.length;
    expect(callsAfterFirst).toBe(3);
    const again = testDeps({ optimizer, config: cfg, store: deps.store });
    const second = await reflect(testContext(again), input(rows));
    expect(optimizer.calls.length).toBe(callsAfterFirst);
    expect(second).toEqual(first);
  });
});

describe("reflect: analyst prompts", () => {
  it("states the budget as the configured maximum learning rate, not the scheduled value", async () => {
    const optimizer = echoAnalyst();
    const { ctx } = setup({
      optimizer,
      cfg: testConfig({ optimizer: { learning_rate: 7, min_learning_rate: 1 }, gradient: { minibatch_size: 10 } }),
    });
    await reflect(ctx, input([row("a", 0), row("b", 1)]));
    for (const c of optimizer.calls) {
      expect(userOf(c)).toContain("## Edit Budget");
      expect(userOf(c)).toContain("at most L=7 edits");
    }
  });

  it("names suggestions in rewrite mode and asks for one replacement in full-rewrite mode", async () => {
    const r = echoAnalyst();
    const rcfg = testConfig({
      optimizer: { learning_rate: 3, skill_update_mode: "rewrite_from_suggestions" },
      gradient: { minibatch_size: 10 },
    });
    await reflect(setup({ optimizer: r, cfg: rcfg, mode: "rewrite_from_suggestions" }).ctx, input([row("a", 0)]));
    expect(userOf(r.calls[0]!)).toContain("at most L=3 suggestions");
    const f = echoAnalyst();
    const fcfg = testConfig({
      optimizer: { skill_update_mode: "full_rewrite_minibatch" },
      gradient: { minibatch_size: 10 },
    });
    await reflect(setup({ optimizer: f, cfg: fcfg, mode: "full_rewrite_minibatch" }).ctx, input([row("a", 0)]));
    expect(userOf(f.calls[0]!)).toContain("## Update Format");
    expect(userOf(f.calls[0]!)).not.toContain("at most L=");
  });

  it("includes the previous-steps section only when the buffer is non-empty, then the meta block, then the trajectories", async () => {
    const without = echoAnalyst();
    await reflect(setup({ optimizer: without }).ctx, input([row("a", 0)]));
    expect(userOf(without.calls[0]!)).not.toContain("Previous Steps in This Epoch");
    expect(userOf(without.calls[0]!)).not.toContain("Optimizer Meta Skill");

    const withBoth = echoAnalyst();
    const meta = metaBlock("- prefer small appends");
    await reflect(
      setup({ optimizer: withBoth }).ctx,
      input([row("a", 0), row("b", 1)], { stepBuffer: "### Step 1: REJECT (1/2 failed)", metaBlock: meta }),
    );
    for (const c of withBoth.calls) {
      const user = userOf(c);
      const iSkill = user.indexOf("## Current Skill");
      const iBudget = user.indexOf("## Edit Budget");
      const iPrev = user.indexOf("## Previous Steps in This Epoch\n### Step 1: REJECT (1/2 failed)");
      const iMeta = user.indexOf("## Optimizer Meta Skill");
      const iTraj = user.search(/## (Failed|Successful) Trajectories \(1 total\)/);
      expect([iSkill, iBudget, iPrev, iMeta, iTraj].every((i) => i >= 0)).toBe(true);
      expect(iSkill < iBudget && iBudget < iPrev && iPrev < iMeta && iMeta < iTraj).toBe(true);
      expect(user).toContain("- prefer small appends");
    }
  });

  it("deep mode shows the conversation; shallow mode only the task, prediction, reference and failure reason", async () => {
    const deep = echoAnalyst();
    await reflect(setup({ optimizer: deep }).ctx, input([row("a", 0)]));
    expect(userOf(deep.calls[0]!)).toContain("answer-text-a");

    const shallow = echoAnalyst();
    const cfg = testConfig({ gradient: { minibatch_size: 10, reflect_mode: "shallow" } });
    await reflect(setup({ optimizer: shallow, cfg }).ctx, input([row("a", 0)]));
    const user = userOf(shallow.calls[0]!);
    expect(user).not.toContain("answer-text-a");
    expect(user).not.toContain("ask a");
    expect(user).toContain("Task: question a");
    expect(user).toContain("Failure reason: EM=0: wrong a");
    expect(user).toContain("pred-a");
    expect(user).toContain("ref-a");
  });

  it("adds the skill-aware suffix to the failure analyst, and to the success analyst unless notes come from failures only", async () => {
    const both = echoAnalyst();
    const cfgBoth = testConfig({ optimizer: { use_skill_aware_reflection: true }, gradient: { minibatch_size: 10 } });
    await reflect(setup({ optimizer: both, cfg: cfgBoth }).ctx, input([row("a", 0), row("b", 1)]));
    expect(both.calls.every((c) => c.system.includes("appendix_notes"))).toBe(true);

    const failOnly = echoAnalyst();
    const cfgFail = testConfig({
      optimizer: { use_skill_aware_reflection: true, skill_aware_appendix_source: "failure_only" },
      gradient: { minibatch_size: 10 },
    });
    await reflect(setup({ optimizer: failOnly, cfg: cfgFail }).ctx, input([row("a", 0), row("b", 1)]));
    expect(failOnly.calls.filter(isFailureCall)[0]!.system).toContain("EXECUTION_LAPSE");
    expect(failOnly.calls.filter((c) => !isFailureCall(c))[0]!.system).not.toContain("appendix_notes");
  });
});

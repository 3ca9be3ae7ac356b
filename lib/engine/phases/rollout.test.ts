import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../contracts/events";
import { EngineError } from "../context";
import { MemoryCheckpointStore } from "../memory-store";
import type { CompletionRequest, CompletionResult, ModelClient, RolloutBatch, RolloutRunner } from "../ports";
import { ScriptedClient, testConfig, testContext, testDeps, wordEnv, wordItems } from "../testing";
import { wordOptimizer } from "../testing-optimizer";
import { runTraining } from "../trainer";
import type { Trajectory } from "../types";
import { rolloutItems } from "./rollout";

/** Runs every item through the env, then answers in reverse order (as a slow first chunk would). */
function reversingRunner(): RolloutRunner & { batches: RolloutBatch[] } {
  const env = wordEnv();
  const target = new ScriptedClient(() => "elsewhere");
  const batches: RolloutBatch[] = [];
  return {
    batches,
    async run(batch) {
      batches.push(batch);
      const rows: Trajectory[] = [];
      for (const item of batch.items)
        rows.push(await env.rollout({ ...batch, item, client: target, useEvalFeedback: batch.useEvalFeedback }));
      return rows.reverse();
    },
  };
}

const items = wordItems("q", 5, ["alpha", "beta"]);
const opts = { dir: "steps/step_0001/rollout", items, skill: "alpha", phase: "train" as const, seed: 7 };

describe("rolloutItems with an injected runner", () => {
  it("merges the runner's rows in item order, stores them in that order and counts their tokens", async () => {
    const runner = reversingRunner();
    const deps = { ...testDeps({ optimizer: wordOptimizer() }), rollouts: runner };
    const ctx = testContext(deps);
    const rows = await rolloutItems(ctx, opts);
    expect(rows.map((r) => r.id)).toEqual(items.map((it) => it.id));
    expect((await deps.store.readRows(`${opts.dir}/results.jsonl`)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(ctx.usage.snapshot().rollout?.calls).toBe(5);
    // The target of this process made no call: the runner's rows are all there is.
    expect((deps.target as ScriptedClient).calls).toHaveLength(0);
    expect(runner.batches[0]).toMatchObject({ dir: opts.dir, skill: "alpha", phase: "train", seed: 7 });
  });

  it("hands the runner only the items not stored yet (a resumed batch)", async () => {
    const runner = reversingRunner();
    const deps = { ...testDeps({ optimizer: wordOptimizer() }), rollouts: runner };
    const first = await wordEnv().rollout({
      item: items[1]!,
      skill: "alpha",
      client: new ScriptedClient(() => "x"),
      phase: "train",
      seed: 7,
      useEvalFeedback: false,
    });
    await deps.store.appendRows(`${opts.dir}/results.jsonl`, [first]);
    const rows = await rolloutItems(testContext(deps), opts);
    expect(runner.batches[0]!.items.map((it) => it.id)).toEqual(["q0", "q2", "q3", "q4"]);
    expect(rows.map((r) => r.id)).toEqual(["q0", "q1", "q2", "q3", "q4"]);
  });

  it("fails the rollout when the runner leaves an item out", async () => {
    const lossy: RolloutRunner = { run: async (b) => (await reversingRunner().run(b)).slice(1) };
    const deps = { ...testDeps({ optimizer: wordOptimizer() }), rollouts: lossy };
    await expect(rolloutItems(testContext(deps), opts)).rejects.toThrow(EngineError);
    expect(await deps.store.readRows(`${opts.dir}/results.jsonl`)).toEqual([]);
  });

  it("keeps an early-stopped evaluation in this process", async () => {
    const runner = reversingRunner();
    const deps = { ...testDeps({ optimizer: wordOptimizer() }), rollouts: runner };
    const rows = await rolloutItems(testContext(deps), { ...opts, stopWhen: (done) => done.size >= 2 });
    expect(runner.batches).toHaveLength(0);
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });
});

describe("runTraining with an injected runner", () => {
  it("takes the same gate decisions and ends with the same best skill as in one process", async () => {
    const config = testConfig({ train: { num_epochs: 2, batch_size: 4 } });
    const gates = (events: EngineEvent[]) => events.filter((e) => e.type === "gateDecided");
    const here = testDeps({ optimizer: wordOptimizer(), config });
    await runTraining(here);
    const runner = reversingRunner();
    const there = { ...testDeps({ optimizer: wordOptimizer(), config }), rollouts: runner };
    await runTraining(there);
    expect(runner.batches.length).toBeGreaterThan(0);
    expect(gates(here.eventsSeen).length).toBeGreaterThan(0);
    expect(gates(there.eventsSeen)).toEqual(gates(here.eventsSeen));
    expect(await there.store.getText("best_skill.md")).toBe(await here.store.getText("best_skill.md"));
  });
});

describe("a benchmark's grading calls (Trajectory.judgeUsage)", () => {
  /** The word env, with every row graded by one judge call of 7 + 2 tokens. */
  function judgedEnv() {
    const env = wordEnv();
    return {
      ...env,
      async rollout(input: Parameters<typeof env.rollout>[0]): Promise<Trajectory> {
        return { ...(await env.rollout(input)), judgeUsage: { calls: 1, promptTokens: 7, completionTokens: 2 } };
      },
    };
  }

  it("are counted under stage judge as the rows are made, and again by a resumed session reading them back", async () => {
    const deps = testDeps({ optimizer: wordOptimizer(), env: judgedEnv() });
    const live = testContext(deps);
    await rolloutItems(live, opts);
    expect(live.usage.snapshot().judge).toEqual({ calls: 5, prompt_tokens: 35, completion_tokens: 10 });
    // A new session (a resume) reads the stored rows: their grading counts once, as in an uninterrupted run.
    const resumed = testContext(deps);
    await rolloutItems(resumed, opts);
    expect(resumed.usage.snapshot().judge).toEqual({ calls: 5, prompt_tokens: 35, completion_tokens: 10 });
    await rolloutItems(resumed, opts);
    expect(resumed.usage.snapshot().judge?.calls).toBe(5);
  });
});

/** A target that answers after `ms` (so later items are still running when an earlier write fails). */
class SlowClient implements ModelClient {
  readonly backend = "slow";
  readonly model = "slow";
  constructor(private readonly ms: number) {}
  async complete(_req: CompletionRequest): Promise<CompletionResult> {
    await new Promise((r) => setTimeout(r, this.ms));
    return { text: "alpha", usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: this.ms, cached: false };
  }
}

describe("rolloutItems in this process", () => {
  it("fails with a store write that failed while later items still ran, never as an unhandled rejection", async () => {
    const store = new MemoryCheckpointStore();
    store.appendRows = () => Promise.reject(new Error("disk full"));
    const deps = testDeps({
      config: testConfig({ env: { workers: 1 } }),
      optimizer: wordOptimizer(),
      target: new SlowClient(15),
      store,
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      await expect(rolloutItems(testContext(deps), { ...opts, items: items.slice(0, 3) })).rejects.toThrow("disk full");
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { EngineError, RunCancelledError } from "./context";
import { MemoryCheckpointStore } from "./memory-store";
import { CountingClient, ScriptedClient, testConfig, testDeps, wordEnv } from "./testing";
import { wordOptimizer } from "./testing-optimizer";
import { runTraining } from "./trainer";
import type { EngineEvent } from "../contracts/events";

describe("runTraining on the word environment", () => {
  it("learns the missing words, gates each step and ends with tests and a summary", async () => {
    const deps = testDeps({
      optimizer: wordOptimizer(),
      config: testConfig({ train: { num_epochs: 2, batch_size: 4 } }),
    });
    const summary = await runTraining(deps);
    const best = await deps.store.getText("best_skill.md");
    expect(best).toContain("remember alpha");
    expect(best).toContain("remember beta");
    expect(best).toContain("remember gamma");
    expect(summary.best_selection_hard).toBe(1);
    expect(summary.baseline_selection_hard).toBe(0);
    expect(summary.test_hard).toBe(1);
    expect(summary.baseline_test_hard).toBe(0);
    const types = deps.eventsSeen.map((e) => e.type);
    expect(types[0]).toBe("runStarted");
    expect(types[1]).toBe("baselineScored");
    expect(types.at(-1)).toBe("runCompleted");
    expect(types.filter((t) => t === "stepCommitted")).toHaveLength(6);
    expect(types).toContain("slowUpdateApplied");
    expect(types).toContain("metaSkillUpdated");
    const history = (await deps.store.getJson<Array<Record<string, unknown>>>("history.json"))!;
    expect(history.map((h) => h.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(history[0]!.action).toBe("accept_new_best");
  });

  it("a tie with the current score is rejected and counted toward gate patience", async () => {
    // The harmful edit makes every candidate identical to current in score: all rejected after learning.
    const deps = testDeps({
      optimizer: new ScriptedClient((req) =>
        req.system.startsWith("You are the failure analyst")
          ? JSON.stringify({
              batch_size: 1,
              patch: { reasoning: "noise", edits: [{ op: "append", content: "- unrelated advice" }] },
            })
          : JSON.stringify({ reasoning: "m", edits: [{ op: "append", content: "- unrelated advice" }] }),
      ),
      config: testConfig({ train: { num_epochs: 3, batch_size: 4 }, evaluation: { gate_patience: 2 } }),
    });
    const summary = await runTraining(deps);
    expect(summary.stop_reason).toMatch(/^gate_patience: 2 consecutive/);
    const history = (await deps.store.getJson<Array<Record<string, unknown>>>("history.json"))!;
    expect(history.map((h) => h.action)).toEqual(["reject", "reject"]);
    expect(deps.eventsSeen.filter((e) => e.type === "stepCommitted")).toHaveLength(2);
  });

  it("stops the run with the most common reason when every item of a batch errors", async () => {
    const deps = testDeps({ optimizer: wordOptimizer(), env: wordEnv({ fail: () => "error" }) });
    await expect(runTraining(deps)).rejects.toThrow(EngineError);
    const failed = deps.eventsSeen.find((e) => e.type === "runFailed") as Extract<EngineEvent, { type: "runFailed" }>;
    expect(failed.message).toMatch(/every item of selection_eval_baseline failed to run \(6\/6: error: injected\)/);
  });

  it("counts errors apart from wrong answers and never sends them to the analysts", async () => {
    const deps = testDeps({
      optimizer: wordOptimizer(),
      env: wordEnv({ fail: (it) => (it.id === "t3" || it.id === "t7" ? "timeout" : null) }),
    });
    await runTraining(deps);
    const history = (await deps.store.getJson<Array<Record<string, unknown>>>("history.json"))!;
    expect(history.reduce((s, h) => s + (h.n_timeouts as number), 0)).toBe(2);
    const analystPrompts = (deps.optimizer as ScriptedClient)
      .byStage("analyst")
      .map((c) => String(c.messages[0]!.content));
    expect(analystPrompts.join("\n")).not.toMatch(/id=t3\)|id=t7\)/);
  });

  it("emits runCancelled and throws when the signal aborts; resuming finishes the same run", async () => {
    const ac = new AbortController();
    const store = new MemoryCheckpointStore();
    const cfg = testConfig({ train: { num_epochs: 2, batch_size: 4 } });
    const first = testDeps({
      optimizer: wordOptimizer(),
      config: cfg,
      store,
      signal: ac.signal,
      onEvent: (e) => e.type === "stepCommitted" && e.step === 2 && ac.abort(),
    });
    await expect(runTraining(first)).rejects.toThrow(RunCancelledError);
    expect(first.eventsSeen.at(-1)).toMatchObject({ type: "runCancelled" });
    const second = testDeps({ optimizer: wordOptimizer(), config: cfg, store });
    await runTraining(second);
    expect(second.eventsSeen[0]).toMatchObject({ type: "runStarted", resumedFromStep: 2 });
    expect(await store.getText("best_skill.md")).toContain("remember gamma");
  });
});

describe("resume never re-pays a call and ends exactly like an uninterrupted run", () => {
  const cfg = testConfig({
    train: { num_epochs: 2, batch_size: 4 },
    gradient: { minibatch_size: 1, merge_batch_size: 2 },
    optimizer: { learning_rate: 1, min_learning_rate: 1 },
  });
  // Some analyst answers carry an edit that breaks the skill, so the run has rejected steps too.
  const harmful = (user: string) => /id=t(1|6|9)\)/.test(user);
  const phases: Array<EngineEvent["type"]> = [
    "stepStarted",
    "rolloutCompleted",
    "patchesProposed",
    "patchesMerged",
    "editsSelected",
    "candidateBuilt",
    "candidateScored",
    "gateDecided",
    "stepCommitted",
  ];

  async function uninterrupted() {
    const optimizer = new CountingClient(wordOptimizer({ harmful }));
    const target = new CountingClient(new ScriptedClient(() => "ok"));
    const deps = testDeps({ optimizer, target, config: cfg });
    const summary = await runTraining(deps);
    const actions = ((await deps.store.getJson<Array<{ action: string }>>("history.json")) ?? []).map((h) => h.action);
    expect(actions).toContain("reject");
    expect(actions).toContain("accept_new_best");
    return { deps, optimizer, target, summary };
  }

  it.each(phases)("interrupting step 2 after %s", async (phase) => {
    const ref = await uninterrupted();
    const store = new MemoryCheckpointStore();
    const ac = new AbortController();
    const opt1 = new CountingClient(wordOptimizer({ harmful }));
    const tgt1 = new CountingClient(new ScriptedClient(() => "ok"));
    const first = testDeps({
      optimizer: opt1,
      target: tgt1,
      config: cfg,
      store,
      signal: ac.signal,
      onEvent: (e) => e.type === phase && "step" in e && e.step === 2 && ac.abort(),
    });
    await expect(runTraining(first)).rejects.toThrow(RunCancelledError);
    const opt2 = new CountingClient(wordOptimizer({ harmful }));
    const tgt2 = new CountingClient(new ScriptedClient(() => "ok"));
    const second = testDeps({ optimizer: opt2, target: tgt2, config: cfg, store });
    const summary = await runTraining(second);
    expect(await store.getText("best_skill.md")).toBe(await ref.deps.store.getText("best_skill.md"));
    expect(await store.getJson("history.json")).toEqual(await ref.deps.store.getJson("history.json"));
    expect(opt1.count + opt2.count).toBe(ref.optimizer.count);
    expect(tgt1.count + tgt2.count).toBe(ref.target.count);
    expect(summary.token_summary).toEqual(ref.summary.token_summary);
  });
});

describe("model errors that end the run", () => {
  const stopping = (kind: "fail" | "pause") =>
    Object.assign(new Error(kind === "pause" ? "budget spent: 10 of 10 calls" : "401 invalid api key"), {
      stopRun: kind,
    });

  it("a budget error pauses the run (runPaused) instead of falling back; resuming with budget finishes it", async () => {
    const store = new MemoryCheckpointStore();
    let calls = 0;
    const opt = wordOptimizer();
    const limited = {
      backend: "x",
      model: "x",
      complete: async (req: Parameters<typeof opt.complete>[0]) =>
        ++calls > 5 ? Promise.reject(stopping("pause")) : opt.complete(req),
    };
    const first = testDeps({ optimizer: limited, store });
    await expect(runTraining(first)).rejects.toThrow("budget spent");
    expect(first.eventsSeen.at(-1)).toMatchObject({ type: "runPaused", reason: "budget spent: 10 of 10 calls" });
    const second = testDeps({ optimizer: wordOptimizer(), store });
    const summary = await runTraining(second);
    expect(summary.best_selection_hard).toBe(1);
  });

  it("a fatal optimizer error fails the run at once instead of silently falling back", async () => {
    const deps = testDeps({ optimizer: new ScriptedClient(() => stopping("fail")) });
    await expect(runTraining(deps)).rejects.toThrow("401 invalid api key");
    expect(deps.eventsSeen.at(-1)).toMatchObject({ type: "runFailed", message: "401 invalid api key" });
    expect(deps.eventsSeen.filter((e) => e.type === "stepCommitted")).toHaveLength(0);
  });

  it("a fatal target error fails the run too (it is not an error trajectory)", async () => {
    const deps = testDeps({ optimizer: wordOptimizer(), target: new ScriptedClient(() => stopping("fail")) });
    await expect(runTraining(deps)).rejects.toThrow("401 invalid api key");
  });
});

/**
 * Concurrency at the epoch boundary: the slow update's pair rollouts (previous and current skill) run at
 * the same time, the meta skill's call runs while the slow update's runs, the pairs are rolled out once
 * for both, and the two parts still commit in order with the decisions of the sequential boundary.
 */
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../contracts/events";
import { runEpochBoundary } from "./epoch-boundary";
import { evalItems } from "./phases/evaluate";
import type { CompletionRequest, CompletionResult, ModelClient } from "./ports";
import { SIGNATURES } from "./prompts/common";
import { SLOW_UPDATE_END, SLOW_UPDATE_START, replaceSlowUpdate } from "./protected";
import { freshState } from "./state";
import { testConfig, testContext, testDeps } from "./testing";

const PREV = `# Skill\n- alpha\n\n${SLOW_UPDATE_START}\n- old guidance\n${SLOW_UPDATE_END}\n`;
const CURR = PREV.replace("- alpha\n", "- alpha\n- step edit\n");

/** A client that answers after a real delay and logs `start`/`end` marks with a label per call. */
class RecordingClient implements ModelClient {
  readonly backend = "recording";
  readonly model = "recording";
  constructor(
    private readonly log: string[],
    private readonly label: (req: CompletionRequest) => string,
    private readonly answer: (req: CompletionRequest) => string,
    private readonly delayMs = 15,
  ) {}
  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const tag = this.label(req);
    this.log.push(`start ${tag}`);
    await new Promise((r) => setTimeout(r, this.delayMs));
    this.log.push(`end ${tag}`);
    return { text: this.answer(req), usage: { promptTokens: 10, completionTokens: 5 }, latencyMs: 0, cached: false };
  }
}

function setup() {
  const log: string[] = [];
  const optimizer = new RecordingClient(
    log,
    (req) => (req.system.startsWith(SIGNATURES.slowUpdate) ? "slow_update" : "meta_skill"),
    (req) =>
      req.system.startsWith(SIGNATURES.slowUpdate)
        ? JSON.stringify({ reasoning: "it helped", slow_update_content: "- keep beta" })
        : JSON.stringify({ reasoning: "memo", meta_skill_content: "- small appends work" }),
  );
  const target = new RecordingClient(
    log,
    (req) => (req.system.includes("- step edit") ? "rollout curr" : "rollout prev"),
    () => "ok",
  );
  const config = testConfig({
    optimizer: { use_slow_update: true, use_meta_skill: true, slow_update_samples: 4 },
  });
  const events: EngineEvent[] = [];
  const deps = testDeps({ optimizer, target, config, onEvent: (e) => events.push(e) });
  const ctx = testContext(deps);
  const selectionItems = evalItems(ctx, deps.splits, "val");
  return { log, deps, ctx, events, train: deps.splits.train, selectionItems };
}

async function epoch2(s: ReturnType<typeof setup>) {
  await s.deps.store.putText("skills/skill_v0003.md", PREV);
  const st = freshState("# init\n");
  Object.assign(st, {
    currentSkill: CURR,
    currentScore: 0.5,
    bestSkill: CURR,
    bestScore: 0.5,
    lastCompletedStep: 6,
    slowDoneEpoch: 1,
    metaDoneEpoch: 1,
    history: [1, 2, 3, 4, 5, 6].map((step) => ({
      step,
      epoch: step <= 3 ? 1 : 2,
      step_in_epoch: (step - 1) % 3,
      action: "accept",
    })),
  });
  return st;
}

const first = (log: string[], mark: string) => log.indexOf(mark);
const last = (log: string[], mark: string) => log.lastIndexOf(mark);

describe("epoch boundary concurrency", () => {
  it("rolls the previous and the current skill out at the same time", async () => {
    const s = setup();
    const st = await epoch2(s);
    await runEpochBoundary(s.ctx, st, { epoch: 2, lastStep: 6, train: s.train, selectionItems: s.selectionItems });
    // A rollout of the current skill starts before the last rollout of the previous skill has ended.
    expect(first(s.log, "start rollout curr")).toBeGreaterThanOrEqual(0);
    expect(first(s.log, "start rollout curr")).toBeLessThan(last(s.log, "end rollout prev"));
  });

  it("runs the meta-skill call while the slow update's call runs, rolling the pairs out once", async () => {
    const s = setup();
    const st = await epoch2(s);
    await runEpochBoundary(s.ctx, st, { epoch: 2, lastStep: 6, train: s.train, selectionItems: s.selectionItems });
    const calls = s.log.filter((l) => !l.includes("rollout"));
    expect(calls.slice(0, 2).sort()).toEqual(["start meta_skill", "start slow_update"]);
    expect(s.log.filter((l) => l.startsWith("start rollout"))).toHaveLength(8); // 4 pairs, once
    // Both answers are used as in the sequential boundary.
    expect(st.currentSkill).toBe(replaceSlowUpdate(CURR, "- keep beta"));
    const meta = await s.deps.store.getJson("meta_skill/epoch_02/meta_skill_result.json");
    expect(meta).toMatchObject({ action: "write_meta_skill", meta_skill_content: "- small appends work" });
  });

  it("commits in order: slow update, then meta skill, then one state save with both done", async () => {
    const s = setup();
    const st = await epoch2(s);
    await runEpochBoundary(s.ctx, st, { epoch: 2, lastStep: 6, train: s.train, selectionItems: s.selectionItems });
    const kinds = s.events.map((e) => e.type).filter((t) => t === "slowUpdateApplied" || t === "metaSkillUpdated");
    expect(kinds).toEqual(["slowUpdateApplied", "metaSkillUpdated"]);
    expect(await s.deps.store.getJson("runtime_state.json")).toMatchObject({
      slow_update_done_epoch: 2,
      meta_skill_done_epoch: 2,
    });
  });

  it("a slow update that stops the run commits neither part, though the meta call was answered", async () => {
    const s = setup();
    const st = await epoch2(s);
    const ask = s.ctx.askOptimizer;
    s.ctx.askOptimizer = async (call) => {
      if (call.stage === "slow_update") throw new Error("optimizer broke");
      return ask(call);
    };
    await expect(
      runEpochBoundary(s.ctx, st, { epoch: 2, lastStep: 6, train: s.train, selectionItems: s.selectionItems }),
    ).rejects.toThrow("optimizer broke");
    expect([st.slowDoneEpoch, st.metaDoneEpoch]).toEqual([1, 1]);
    expect(s.log).toContain("end meta_skill");
    expect(await s.deps.store.getJson("meta_skill/epoch_02/meta_skill_result.json")).toBeUndefined();
  });
});

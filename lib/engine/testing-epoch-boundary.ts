/**
 * The epoch-boundary tests' fixture: a scripted optimizer answering the slow-update and meta-skill prompts,
 * and a train state as it stands at the end of epoch 2. Used by epoch-boundary*.test.ts.
 */
import type { EngineEvent } from "../contracts/events";
import { runEpochBoundary } from "./epoch-boundary";
import { evalItems } from "./phases/evaluate";
import type { CompletionRequest } from "./ports";
import { SIGNATURES } from "./prompts/common";
import { SLOW_UPDATE_END, SLOW_UPDATE_START } from "./protected";
import { freshState, type TrainState } from "./state";
import { CountingClient, ScriptedClient, testConfig, testContext, testDeps } from "./testing";
import type { StepRecord } from "./types";

export const userOf = (req: CompletionRequest): string => String(req.messages[0]?.content ?? "");

export const PREV_SNAPSHOT = `# Skill\n- alpha\n\n${SLOW_UPDATE_START}\n- old guidance\n${SLOW_UPDATE_END}\n`;
export const CURR = `# Skill\n- alpha\n\n${SLOW_UPDATE_START}\n- old guidance\n${SLOW_UPDATE_END}\n`.replace(
  "- alpha\n",
  "- alpha\n- step edit\n",
);
export const BEST = "# Best skill\n- alpha\n- beta\n";

export const rec = (step: number, epoch: number): StepRecord => ({
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

export function setup(opts: Options = {}) {
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
export async function epoch2State(
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

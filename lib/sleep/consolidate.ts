/**
 * One consolidation epoch (spec D.7): train tasks drive reflection, val tasks gate. Skill edits are tried
 * first, then memory edits; each trial is replayed on val and kept only when its score is strictly above
 * the current one (and, with no-regression on, no val task got worse). The final documents are replayed
 * on val once more: the night is accepted only when some edit was applied, the final score beats the
 * baseline, and nothing blocks it. A gate measured on tasks the optimizer also saw cannot certify
 * anything: such a night ends `reject_unverified`. With the gate off (greedy), nothing is scored on val
 * and every applied edit is kept. Test tasks are never used here.
 */
import { gateScore } from "../engine/gate";
import { contrastiveReflect, multiRollout } from "./contrastive";
import { finishConsolidation } from "./gate-final";
import {
  gateApply,
  splitForGate,
  type ConsolidateDeps,
  type ConsolidateOptions,
  type ConsolidationRun,
} from "./gate-trial";
import { aggregateScores, replayBatch, type Scored } from "./replay";
import type { ConsolidationResult, EditRecord, TaskRecord } from "./types";

export { splitForGate, type ConsolidateDeps, type ConsolidateOptions } from "./gate-trial";

async function evolveSkill(n: ConsolidationRun, failures: Scored, successes: Scored): Promise<void> {
  const b = n.deps.backend;
  let edits: EditRecord[] = [];
  if (n.o.rolloutsK > 1) {
    const sets = [];
    for (const t of n.train) sets.push(await multiRollout(n.deps, t, n.skill, n.memory, n.o.rolloutsK));
    edits = await contrastiveReflect(b, n.deps.prompts, sets, {
      editBudget: n.o.editBudget,
      target: "skill",
      score: n.score,
      metric: n.o.gateMetric,
    });
  }
  if (edits.length === 0)
    edits = await b.reflect({
      failures,
      successes,
      skill: n.skill,
      memory: n.memory,
      editBudget: n.o.editBudget,
      target: "skill",
    });
  n.skill = await gateApply(n, n.skill, edits, "skill");
}

async function evolveMemory(n: ConsolidationRun): Promise<void> {
  n.deps.backend.evidence.phase = "train_post_skill";
  const pairs = await replayBatch(n.deps, n.train, n.skill, n.memory, n.o.workers);
  const failures = pairs.filter(([, r]) => r.hard < 1);
  const successes = pairs.filter(([, r]) => r.hard >= 1);
  const edits = await n.deps.backend.reflect({
    failures,
    successes,
    skill: n.skill,
    memory: n.memory,
    editBudget: n.o.editBudget,
    target: "memory",
  });
  n.memory = await gateApply(n, n.memory, edits, "memory");
}

export async function consolidate(
  deps: ConsolidateDeps,
  tasks: readonly TaskRecord[],
  skill: string,
  memory: string,
  o: ConsolidateOptions,
): Promise<ConsolidationResult> {
  const ev = deps.backend.evidence;
  const { train, val, leaked } = splitForGate(tasks);
  const score = (hard: number, soft: number) =>
    gateScore({ hard, soft, metric: o.gateMetric, mixedWeight: o.gateMixedWeight });
  let basePairs: Scored = [];
  if (!o.gateOff) {
    ev.phase = "baseline_val";
    basePairs = await replayBatch(deps, val, skill, memory, o.workers);
  }
  const base = aggregateScores(basePairs);
  const baseScore = o.gateOff ? 0 : score(base.hard, base.soft);
  ev.log("gate", "baseline", {
    gateMode: o.gateOff ? "off" : "on",
    nTrain: train.length,
    nVal: val.length,
    hard: base.hard,
    soft: base.soft,
    score: baseScore,
    metric: o.gateMetric,
    mixedWeight: o.gateMixedWeight,
  });
  ev.phase = "train";
  const trainPairs = await replayBatch(deps, train, skill, memory, o.workers);
  const n: ConsolidationRun = {
    deps,
    o,
    train,
    val,
    score,
    skill,
    memory,
    current: baseScore,
    currentPairs: basePairs,
    applied: [],
    rejected: [],
    unmatched: [],
    trials: [],
  };
  if (o.evolveSkill)
    await evolveSkill(
      n,
      trainPairs.filter(([, r]) => r.hard < 1),
      trainPairs.filter(([, r]) => r.hard >= 1),
    );
  if (o.evolveMemory) await evolveMemory(n);
  return finishConsolidation(n, { skill, memory, basePairs, base, baseScore, leaked });
}

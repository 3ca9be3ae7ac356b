/**
 * One consolidation epoch (spec D.7): train tasks drive reflection, val tasks gate. Skill edits are tried
 * first, then memory edits; each trial is replayed on val and kept only when its score is strictly above
 * the current one (and, with no-regression on, no val task got worse). The final documents are replayed
 * on val once more: the night is accepted only when some edit was applied, the final score beats the
 * baseline, and nothing blocks it. A gate measured on tasks the optimizer also saw cannot certify
 * anything: such a night ends `reject_unverified`. With the gate off (greedy), nothing is scored on val
 * and every applied edit is kept. Test tasks are never used here.
 */
import { decideGate, gateScore } from "../engine/gate";
import { contrastiveReflect, multiRollout } from "./contrastive";
import { applyEdits } from "./learned";
import type { PromptRegistry } from "./prompts";
import { aggregateScores, replayBatch, type ReplayDeps, type Scored } from "./replay";
import type {
  ConsolidationResult,
  EditRecord,
  GateActionName,
  GateTrial,
  HoldoutDetail,
  TaskDelta,
  TaskRecord,
} from "./types";

export interface ConsolidateDeps extends ReplayDeps {
  prompts: PromptRegistry;
}

export interface ConsolidateOptions {
  editBudget: number;
  gateMetric: "hard" | "soft" | "mixed";
  gateMixedWeight: number;
  gateNoRegression: boolean;
  /** Greedy when true: no validation scoring, every applied edit kept. */
  gateOff: boolean;
  /** >1: contrastive reflection over that many rollouts per train task. */
  rolloutsK: number;
  evolveSkill: boolean;
  evolveMemory: boolean;
  night: number;
  /** Concurrent replays (default 1). */
  workers?: number;
}

/** train drives reflection, val gates; an empty side borrows the other and the night is marked leaked. */
export function splitForGate(tasks: readonly TaskRecord[]): {
  train: TaskRecord[];
  val: TaskRecord[];
  leaked: boolean;
} {
  let train = tasks.filter((t) => t.split === "train");
  let val = tasks.filter((t) => t.split === "val");
  let leaked = false;
  if (val.length === 0) {
    val = train.length > 0 ? train : tasks.filter((t) => t.split !== "test");
    leaked = val.length > 0;
  }
  if (train.length === 0) {
    train = val;
    leaked ||= train.length > 0;
  }
  if (!leaked) {
    const ids = new Set(train.map((t) => t.id));
    leaked = val.some((t) => ids.has(t.id));
  }
  return { train, val, leaked };
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

function holdoutDetail(pairs: Scored): HoldoutDetail[] {
  return pairs.map(([t, r]) => ({
    id: t.id,
    referenceKind: t.referenceKind,
    hard: r.hard,
    soft: r.soft,
    responseLen: r.response.length,
    responseHead: r.response.slice(0, 200),
    why: (r.failReason || r.judgeRationale).slice(0, 200),
  }));
}

/** Per val task: improved / regressed / unchanged; a missing or non-finite score counts as regressed (fail closed). */
export function taskDeltas(
  val: readonly TaskRecord[],
  base: Scored,
  cand: Scored,
  score: (h: number, s: number) => number,
): TaskDelta[] {
  const b = new Map(base.map(([t, r]) => [t.id, score(r.hard, r.soft)]));
  const c = new Map(cand.map(([t, r]) => [t.id, score(r.hard, r.soft)]));
  return val.map((t) => {
    const bs = b.get(t.id);
    const cs = c.get(t.id);
    const scoresAreFinite = bs !== undefined && cs !== undefined && Number.isFinite(bs) && Number.isFinite(cs);
    let status: TaskDelta["status"] = "regressed";
    if (scoresAreFinite) status = cs! > bs! ? "improved" : cs! < bs! ? "regressed" : "unchanged";
    return {
      taskId: t.id,
      tags: [...t.tags],
      baselineScore: bs === undefined ? null : finite(bs),
      candidateScore: cs === undefined ? null : finite(cs),
      status,
      scoresAreFinite,
    };
  });
}

interface Night {
  deps: ConsolidateDeps;
  o: ConsolidateOptions;
  train: TaskRecord[];
  val: TaskRecord[];
  score: (h: number, s: number) => number;
  skill: string;
  memory: string;
  current: number;
  currentPairs: Scored;
  applied: EditRecord[];
  rejected: EditRecord[];
  unmatched: EditRecord[];
  trials: GateTrial[];
}

const payload = (edits: readonly EditRecord[]) =>
  edits.map((e) => ({ op: e.op, content: e.content, anchor: e.anchor, rationale: e.rationale }));

/** Applies `edits` to one document and gates the result; returns the document to keep. */
async function gateApply(n: Night, doc: string, edits: EditRecord[], which: "skill" | "memory"): Promise<string> {
  const ev = n.deps.backend.evidence;
  ev.log("reflect", "edits_returned", { target: which, nEdits: edits.length, edits: payload(edits) });
  if (edits.length === 0) return doc;
  const { doc: next, applied, unmatched } = applyEdits(doc, edits);
  if (unmatched.length > 0) {
    n.unmatched.push(...unmatched);
    ev.log("reflect", "edits_unmatched", { target: which, nEdits: unmatched.length, edits: payload(unmatched) });
  }
  if (applied.length === 0) return doc;
  if (n.o.gateOff) {
    n.applied.push(...applied);
    ev.log("gate", "trial", { target: which, mode: "greedy", accepted: true, nEdits: applied.length });
    return next;
  }
  ev.phase = `gate_trial:${which}`;
  const pairs = await replayBatch(
    n.deps,
    n.val,
    which === "skill" ? next : n.skill,
    which === "memory" ? next : n.memory,
    n.o.workers,
  );
  const { hard, soft } = aggregateScores(pairs);
  const cand = n.score(hard, soft);
  const deltas = taskDeltas(n.val, n.currentPairs, pairs, n.score);
  const blocked = n.o.gateNoRegression && deltas.some((d) => d.status === "regressed");
  const accepted = cand > n.current && !blocked;
  n.trials.push({
    target: which,
    baselineScore: finite(n.current),
    candidateScore: finite(cand),
    accepted,
    blockedByRegression: blocked,
    taskDeltas: deltas,
  });
  ev.log("gate", "trial", {
    target: which,
    mode: "gated",
    baselineScore: n.current,
    candHard: hard,
    candSoft: soft,
    candScore: cand,
    accepted,
    blockedByRegression: blocked,
    taskDeltas: deltas,
    nEdits: applied.length,
  });
  if (!accepted) {
    n.rejected.push(...applied);
    return doc;
  }
  n.current = cand;
  n.currentPairs = pairs;
  n.applied.push(...applied);
  return next;
}

async function evolveSkill(n: Night, failures: Scored, successes: Scored): Promise<void> {
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

async function evolveMemory(n: Night): Promise<void> {
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
  const n: Night = {
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
  return finish(n, { skill, memory, basePairs, base, baseScore, leaked });
}

async function finish(
  n: Night,
  start: {
    skill: string;
    memory: string;
    basePairs: Scored;
    base: { hard: number; soft: number };
    baseScore: number;
    leaked: boolean;
  },
): Promise<ConsolidationResult> {
  const { deps, o } = n;
  const ev = deps.backend.evidence;
  let action: GateActionName;
  let accepted: boolean;
  let final = { hard: 0, soft: 0 };
  let finalScore = 0;
  if (o.gateOff) {
    accepted = n.applied.length > 0;
    action = accepted ? "greedy_applied" : "greedy_noop";
  } else {
    ev.phase = "final_val";
    const finalPairs = await replayBatch(deps, n.val, n.skill, n.memory, o.workers);
    final = aggregateScores(finalPairs);
    finalScore = n.score(final.hard, final.soft);
    const deltas = taskDeltas(n.val, start.basePairs, finalPairs, n.score);
    const blocked = o.gateNoRegression && deltas.some((d) => d.status === "regressed");
    action = decideGate({
      candidateScore: finalScore,
      currentScore: start.baseScore,
      bestScore: start.baseScore,
      bestStep: o.night - 1,
      step: o.night,
      useGate: true,
    }).action as GateActionName;
    accepted = n.applied.length > 0 && finalScore > start.baseScore && !blocked;
    // The gate scores documents; with every edit dropped, an accept-flavoured action would contradict the outcome.
    if (!accepted && (action === "accept" || action === "accept_new_best")) action = "reject";
    if (accepted && start.leaked) {
      action = "reject_unverified";
      accepted = false;
    }
    if (!accepted) {
      for (const e of n.applied) if (!n.rejected.includes(e)) n.rejected.push(e);
      n.applied = [];
    }
    n.trials.push({
      target: "final",
      baselineScore: finite(start.baseScore),
      candidateScore: finite(finalScore),
      accepted,
      blockedByRegression: blocked,
      taskDeltas: deltas,
    });
  }
  const w = Math.min(1, Math.max(0, o.gateMixedWeight));
  const formula =
    o.gateMetric === "mixed"
      ? `score = (1-${w})*hard + ${w}*soft; baseline = (1-${w})*${start.base.hard.toFixed(3)} + ${w}*${start.base.soft.toFixed(3)} = ${start.baseScore.toFixed(3)}; candidate = (1-${w})*${final.hard.toFixed(3)} + ${w}*${final.soft.toFixed(3)} = ${finalScore.toFixed(3)}`
      : `score = ${o.gateMetric}; baseline = ${start.baseScore.toFixed(3)}; candidate = ${finalScore.toFixed(3)}`;
  ev.log("gate", "decision", {
    action,
    accepted,
    baselineScore: start.baseScore,
    candidateScore: finalScore,
    formula,
    nApplied: n.applied.length,
    nRejected: n.rejected.length,
    nUnmatched: n.unmatched.length,
    night: o.night,
  });
  return {
    accepted,
    gateAction: action,
    baselineScore: start.baseScore,
    candidateScore: finalScore,
    newSkill: accepted ? n.skill : start.skill,
    newMemory: accepted ? n.memory : start.memory,
    appliedEdits: n.applied,
    rejectedEdits: n.rejected,
    unmatchedEdits: n.unmatched,
    holdoutBaseline: start.base.hard,
    holdoutCandidate: final.hard,
    holdoutDetail: holdoutDetail(start.basePairs),
    reflectRaw: deps.backend.lastReflectRaw,
    callError: deps.backend.lastCallError,
    holdoutLeaked: start.leaked,
    gateTrials: n.trials,
  };
}

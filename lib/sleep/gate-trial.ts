/**
 * The gate's trials for one consolidation (spec D.7): which tasks gate (train drives reflection, val
 * gates; a missing side borrows the other and marks the night leaked), the per-task deltas, and one
 * trial: apply a document's edits, replay val, keep them only when the score is strictly above the
 * current one (and, with no-regression on, no val task got worse). Greedy mode keeps every applied edit.
 */
import { applyEdits } from "./learned";
import type { PromptRegistry } from "./prompts";
import { aggregateScores, replayBatch, type ReplayDeps, type Scored } from "./replay";
import type { EditRecord, GateTrial, TaskDelta, TaskRecord } from "./types";

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

export const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

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

/** The state of one consolidation while its trials run. */
export interface ConsolidationRun {
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
export async function gateApply(
  n: ConsolidationRun,
  doc: string,
  edits: EditRecord[],
  which: "skill" | "memory",
): Promise<string> {
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

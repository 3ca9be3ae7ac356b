/**
 * The end of a consolidation (spec D.7): the final documents replayed on val, the vendored gate's action,
 * and the outcome — accepted only when some edit was applied, the final score beats the baseline and
 * nothing blocks it; a leaked holdout turns an accept into `reject_unverified`; a rejected night moves
 * every applied edit to rejected. The decision and its arithmetic go to the evidence log.
 */
import { decideGate } from "../engine/gate";
import { finite, taskDeltas, type ConsolidationRun } from "./gate-trial";
import { aggregateScores, replayBatch, type Scored } from "./replay";
import type { ConsolidationResult, GateActionName, HoldoutDetail } from "./types";

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

export async function finishConsolidation(
  n: ConsolidationRun,
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

/**
 * The run page's evidence read models, assembled from stored rows: every gate decision with its paired
 * statistics (steps, slow updates, the final check), the A/A noise floor, the small-split warning, the
 * proposal explorer's rows and the blame of the best skill.
 */
import type { BlameLineView, GateDecisionView, NoiseFloorView, ProposalRow, RunEvidence } from "../contracts/evidence";
import type { ProposalSource } from "../contracts/events";
import type { StoredRunEvent } from "../contracts/stored-events";
import { listRunEdits, listSkillVersionTexts, listStepActions, listStoredEvents } from "../db/evidence-rows";
import { getBestSkill } from "../db/export";
import { getRun } from "../db/runs";
import { blameChain, describeOrigin, renderBlameMarkdown, type BlameChange } from "../engine/blame";
import { buildProposalRows, type StepLineage } from "./proposal-rows";
import { runSplitWarning } from "./split-warning";

/**
 * Every gate decision with its paired statistics, from the stored events in order: step gates, gated slow
 * updates and the final selection check (a slow update or check is placed after the last step started).
 */
export function decisionsOf(events: readonly StoredRunEvent[]): GateDecisionView[] {
  const out: GateDecisionView[] = [];
  let step = 0;
  let epoch: number | null = null;
  for (const e of events) {
    if (e.type === "stepStarted") [step, epoch] = [e.step, e.epoch];
    else if (e.type === "gateDecided")
      out.push({ kind: "step", step: e.step, epoch, action: e.action, evidence: e.evidence ?? null });
    else if (e.type === "slowUpdateApplied" && e.evidence)
      out.push({ kind: "slow_update", step, epoch: e.epoch, action: e.action, evidence: e.evidence });
    else if (e.type === "finalSelectionChecked")
      out.push({
        kind: "final",
        step: e.step,
        epoch: null,
        action: e.skipReason ? "skip_errors" : e.promoted ? "promoted" : "kept_best",
        evidence: e.evidence ?? null,
      });
  }
  return out;
}

export async function getRunEvidence(runId: string): Promise<RunEvidence> {
  await getRun(runId);
  const events = await listStoredEvents(runId, [
    "runStarted",
    "stepStarted",
    "gateDecided",
    "slowUpdateApplied",
    "finalSelectionChecked",
    "noiseFloorMeasured",
  ]);
  const noise = new Map<number, NoiseFloorView>();
  let selectionSize: number | null = null;
  for (const e of events) {
    if (e.type === "noiseFloorMeasured") {
      const { epoch, scores, mean, sd, low, high, nItems } = e;
      noise.set(epoch, { epoch, scores, mean, sd, low, high, nItems });
    } else if (e.type === "runStarted") selectionSize = e.selectionSize;
  }
  const decisions = decisionsOf(events);
  return {
    decisions,
    noise: [...noise.values()].sort((a, b) => a.epoch - b.epoch),
    selectionSize,
    smallSplitWarning: runSplitWarning(selectionSize, decisions),
  };
}

/**
 * Recorded merge provenance per step, from the `from` of patchesMerged and the `merged` of editsSelected; a
 * step whose events lack them (stored before provenance was recorded) has none, and its rows fall back to words.
 */
export function lineageOf(events: readonly StoredRunEvent[]): Map<number, StepLineage> {
  const out = new Map<number, StepLineage>();
  // Events come in order; a step re-run after a resume replaces what its earlier attempt recorded.
  for (const e of events) {
    if (e.type === "patchesMerged") {
      if (e.from) out.set(e.step, { merged: e.from, selected: [] });
      else out.delete(e.step);
    } else if (e.type === "editsSelected") {
      const lin = out.get(e.step);
      if (lin && e.merged) lin.selected = e.merged;
      else out.delete(e.step);
    }
  }
  return out;
}

export async function getRunProposals(runId: string): Promise<ProposalRow[]> {
  await getRun(runId);
  const [edits, steps, events] = await Promise.all([
    listRunEdits(runId),
    listStepActions(runId),
    listStoredEvents(runId, ["patchesProposed", "patchesMerged", "editsSelected"]),
  ]);
  const sources = new Map<number, ProposalSource[]>();
  for (const e of events) if (e.type === "patchesProposed" && e.sources) sources.set(e.step, e.sources);
  return buildProposalRows({ edits, steps, sources, lineage: lineageOf(events) });
}

/** The chain of versions of a stored run that ends at its best skill (as `skillopt blame` reads a run folder). */
export async function runBlameChain(runId: string): Promise<BlameChange[]> {
  const run = await getRun(runId);
  const [best, versions, edits] = await Promise.all([
    getBestSkill(runId),
    listSkillVersionTexts(runId),
    listRunEdits(runId),
  ]);
  const chain: BlameChange[] = [{ text: run.seedSkill, origin: { kind: "seed" } }];
  let bestAt = run.seedSkill === best ? 1 : 0;
  for (const v of versions) {
    if (v.kind === "candidate" && (v.status ?? "").includes("accept")) {
      const stepEdits = edits
        .filter((e) => e.step === v.step && e.stage === "selected")
        .map((e) => ({
          index: e.ord + 1,
          op: e.op,
          content: e.content ?? "",
          rationale: e.rationale ?? "",
          sourceType: e.origin,
          supportCount: e.support,
          status: e.applyStatus ?? "applied",
        }));
      chain.push({
        text: v.content,
        origin: { kind: "step", step: v.step, epoch: v.epoch, action: v.status ?? "accept", edit: null },
        edits: stepEdits,
      });
    } else if (v.kind === "slow_update" && v.content !== chain.at(-1)!.text) {
      chain.push({ text: v.content, origin: { kind: "epoch_boundary", epoch: v.epoch } });
    } else continue;
    if (chain.at(-1)!.text === best) bestAt = chain.length;
  }
  if (bestAt === 0) return [...chain, { text: best, origin: { kind: "final_check" } }];
  return chain.slice(0, bestAt);
}

export async function getRunBlame(runId: string): Promise<BlameLineView[]> {
  const chain = await runBlameChain(runId);
  const evidence = new Map(
    decisionsOf(await listStoredEvents(runId, ["stepStarted", "gateDecided"])).map((d) => [d.step, d.evidence]),
  );
  return blameChain(chain).map((l) => {
    const o = l.origin;
    return {
      line: l.line,
      text: l.text,
      kind: o.kind,
      describe: describeOrigin(o),
      step: o.kind === "step" ? o.step : null,
      epoch: o.kind === "step" || o.kind === "epoch_boundary" ? o.epoch : null,
      action: o.kind === "step" ? o.action : null,
      edit: o.kind === "step" ? o.edit : null,
      evidence: o.kind === "step" ? (evidence.get(o.step) ?? null) : null,
    };
  });
}

/** BLAME.md of the run's best skill, for the export bundle. */
export async function runBlameMarkdown(runId: string): Promise<string> {
  return renderBlameMarkdown(blameChain(await runBlameChain(runId)));
}

/**
 * The run page's evidence read models, assembled from stored rows: every gate decision with its paired
 * statistics (steps, slow updates, the final check), the A/A noise floor, the small-split warning, the
 * proposal explorer's rows and the blame of the best skill.
 */
import type { BlameLineView, GateDecisionView, NoiseFloorView, ProposalRow, RunEvidence } from "../contracts/evidence";
import { z } from "zod";
import { GateEvidenceSchema, ProposalSourceSchema, type ProposalSource } from "../contracts/events";
import { listEventPayloads, listRunEdits, listSkillVersionTexts, listStepActions } from "../db/evidence-rows";
import { getBestSkill } from "../db/export";
import { getRun } from "../db/runs";
import { blameChain, describeOrigin, renderBlameMarkdown, type BlameChange } from "../engine/blame";
import { buildProposalRows, type StepLineage } from "./proposal-rows";
import { runSplitWarning } from "./split-warning";

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
const evidenceOf = (v: unknown) => {
  const r = GateEvidenceSchema.safeParse(v);
  return r.success ? r.data : null;
};

export function decisionsOf(events: { type: string; payload: Record<string, unknown> }[]): GateDecisionView[] {
  const out: GateDecisionView[] = [];
  let step = 0;
  let epoch: number | null = null;
  for (const { type, payload: p } of events) {
    if (type === "stepStarted") [step, epoch] = [num(p.step) ?? step, num(p.epoch)];
    else if (type === "gateDecided")
      out.push({
        kind: "step",
        step: num(p.step) ?? 0,
        epoch,
        action: String(p.action),
        evidence: evidenceOf(p.evidence),
      });
    else if (type === "slowUpdateApplied" && p.evidence)
      out.push({
        kind: "slow_update",
        step,
        epoch: num(p.epoch),
        action: String(p.action),
        evidence: evidenceOf(p.evidence),
      });
    else if (type === "finalSelectionChecked")
      out.push({
        kind: "final",
        step: num(p.step) ?? step,
        epoch: null,
        action: p.skipReason ? "skip_errors" : p.promoted ? "promoted" : "kept_best",
        evidence: evidenceOf(p.evidence),
      });
  }
  return out;
}

export async function getRunEvidence(runId: string): Promise<RunEvidence> {
  await getRun(runId);
  const events = await listEventPayloads(runId, [
    "runStarted",
    "stepStarted",
    "gateDecided",
    "slowUpdateApplied",
    "finalSelectionChecked",
    "noiseFloorMeasured",
  ]);
  const noise = new Map<number, NoiseFloorView>();
  for (const e of events.filter((x) => x.type === "noiseFloorMeasured"))
    noise.set(num(e.payload.epoch) ?? 0, e.payload as unknown as NoiseFloorView);
  const started = events.filter((e) => e.type === "runStarted").at(-1);
  const selectionSize = started ? num(started.payload.selectionSize) : null;
  const decisions = decisionsOf(events);
  return {
    decisions,
    noise: [...noise.values()].sort((a, b) => a.epoch - b.epoch),
    selectionSize,
    smallSplitWarning: runSplitWarning(selectionSize, decisions),
  };
}

const intLists = z.array(z.array(z.number().int()));
const ints = z.array(z.number().int());

/**
 * Recorded merge provenance per step, from the `from` of patchesMerged and the `merged` of editsSelected; a
 * step whose events lack them (stored before provenance was recorded) has none, and its rows fall back to words.
 */
export function lineageOf(events: { type: string; payload: Record<string, unknown> }[]): Map<number, StepLineage> {
  const out = new Map<number, StepLineage>();
  // Events come in order; a step re-run after a resume replaces what its earlier attempt recorded.
  for (const { type, payload } of events) {
    const step = num(payload.step) ?? 0;
    if (type === "patchesMerged") {
      const from = intLists.safeParse(payload.from);
      if (from.success) out.set(step, { merged: from.data, selected: [] });
      else out.delete(step);
    } else if (type === "editsSelected") {
      const lin = out.get(step);
      const merged = ints.safeParse(payload.merged);
      if (lin && merged.success) lin.selected = merged.data;
      else out.delete(step);
    }
  }
  return out;
}

export async function getRunProposals(runId: string): Promise<ProposalRow[]> {
  await getRun(runId);
  const [edits, steps, events] = await Promise.all([
    listRunEdits(runId),
    listStepActions(runId),
    listEventPayloads(runId, ["patchesProposed", "patchesMerged", "editsSelected"]),
  ]);
  const sources = new Map<number, ProposalSource[]>();
  for (const e of events.filter((x) => x.type === "patchesProposed")) {
    const parsed = ProposalSourceSchema.array().safeParse(e.payload.sources);
    if (parsed.success) sources.set(num(e.payload.step) ?? 0, parsed.data);
  }
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
    decisionsOf(await listEventPayloads(runId, ["stepStarted", "gateDecided"])).map((d) => [d.step, d.evidence]),
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

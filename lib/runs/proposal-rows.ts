/**
 * The proposal explorer's rows (pure): every edit an analyst proposed, followed through the step —
 * carried into a merged edit, selected by the ranking within the budget, applied or skipped by the edit
 * application, accepted or rejected by the gate. Runs recorded with merge provenance say which proposed
 * edits each merged edit combines and which merged edit each selected one is; a proposal follows a selected
 * one of its merged edits, else the closest by words. Runs stored before that are matched by words alone
 * (same op and text, or the merged edit sharing most of its words) and the row says it is a guess. A
 * rejected edit goes back to the analysts through the step buffer for the rest of its epoch; it is linked
 * to the first later edit of that epoch with the same target or mostly the same words.
 */
import type { ProposalRow, ProposalStatus } from "../contracts/evidence";
import type { ProposalSource } from "../contracts/events";

export interface EditInput {
  step: number;
  ord: number;
  stage: string;
  origin: string;
  op: string;
  target: string | null;
  content: string | null;
  rationale: string | null;
  applyStatus: string | null;
  gateStatus: string | null;
}

/** Recorded merge provenance of one step (events' `from` / `merged`). */
export interface StepLineage {
  /** Per merged edit (by ord): indices of the proposed edits it combines. */
  merged: readonly (readonly number[])[];
  /** Per selected edit (by ord): the index of the merged edit it is. */
  selected: number[];
}

export interface StepInput {
  step: number;
  epoch: number;
  action: string;
}

/** Words of a text, lower case, for overlap. */
const words = (s: string | null): Set<string> =>
  new Set(
    (s ?? "")
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 2),
  );

export function wordJaccard(a: string | null, b: string | null): number {
  const A = words(a);
  const B = words(b);
  if (A.size === 0 || B.size === 0) return 0;
  let inter = 0;
  for (const w of A) if (B.has(w)) inter++;
  return inter / (A.size + B.size - inter);
}

const same = (a: EditInput, b: EditInput) => a.op === b.op && a.target === b.target && a.content === b.content;

/** The merged edit a proposal was carried into: identical, else the most similar at ≥ `min` words in common. */
function mergedIndex(p: EditInput, merged: readonly EditInput[], min = 0.5): number | null {
  const exact = merged.findIndex((m) => same(p, m));
  if (exact >= 0) return exact;
  let best = -1;
  let score = min;
  merged.forEach((m, i) => {
    const s = wordJaccard(p.content, m.content);
    if (s >= score) [best, score] = [i, s];
  });
  return best >= 0 ? best : null;
}

/**
 * The merged edits a proposal went into by the record, the one to follow first: a selected one (by rank),
 * then the closest by words (ties: lower index).
 */
function recordedMerges(p: EditInput, merged: readonly EditInput[], lin: StepLineage): number[] {
  const into = lin.merged.flatMap((from, i) => (from.includes(p.ord) && merged[i] ? [i] : []));
  const rank = (i: number) => (lin.selected.includes(i) ? lin.selected.indexOf(i) : Infinity);
  const score = (i: number) => (same(p, merged[i]!) ? 2 : wordJaccard(p.content, merged[i]!.content));
  return [...into].sort((a, b) => rank(a) - rank(b) || score(b) - score(a) || a - b);
}

function statusOf(
  step: StepInput | undefined,
  mergedAs: number | null,
  sel: EditInput | null,
  hadMerge: boolean,
): ProposalStatus {
  if (!step) return "pending";
  if (mergedAs === null) return hadMerge ? "dropped_at_merge" : "step_skipped";
  if (!sel) return "not_selected";
  if (sel.applyStatus?.startsWith("skipped")) return "skipped";
  if (sel.gateStatus === "accepted") return "accepted";
  if (sel.gateStatus === "rejected") return "rejected";
  return "step_skipped";
}

/** Per-edit sources from the step's `sources` runs (each covers `nEdits` consecutive proposed edits). */
export function expandSources(sources: readonly ProposalSource[] | undefined): (ProposalRow["source"] | null)[] {
  const out: ProposalRow["source"][] = [];
  for (const s of sources ?? [])
    for (let i = 0; i < s.nEdits; i++)
      out.push({ batch: s.batch, kind: s.kind, minibatch: s.minibatch, itemIds: s.itemIds });
  return out;
}

export function buildProposalRows(input: {
  edits: readonly EditInput[];
  steps: readonly StepInput[];
  sources: ReadonlyMap<number, readonly ProposalSource[]>;
  lineage?: ReadonlyMap<number, StepLineage>;
}): ProposalRow[] {
  const stepOf = new Map(input.steps.map((s) => [s.step, s]));
  const byStep = new Map<number, EditInput[]>();
  for (const e of input.edits) byStep.set(e.step, [...(byStep.get(e.step) ?? []), e]);
  const rows: ProposalRow[] = [];
  for (const [stepNo, edits] of [...byStep.entries()].sort((a, b) => a[0] - b[0])) {
    const stage = (s: string) => edits.filter((e) => e.stage === s).sort((a, b) => a.ord - b.ord);
    const merged = stage("merged");
    const selected = stage("selected");
    const src = expandSources(input.sources.get(stepNo));
    const step = stepOf.get(stepNo);
    const lin = input.lineage?.get(stepNo);
    for (const p of stage("proposed")) {
      const into = lin ? recordedMerges(p, merged, lin) : [mergedIndex(p, merged)].filter((i) => i !== null);
      const mergedAs = into[0] ?? null;
      const selIdx =
        mergedAs === null
          ? -1
          : lin
            ? lin.selected.indexOf(mergedAs)
            : selected.findIndex((s) => same(s, merged[mergedAs]!));
      const sel = selIdx >= 0 ? (selected[selIdx] ?? null) : null;
      rows.push({
        key: `${stepNo}:${p.ord}`,
        step: stepNo,
        epoch: step?.epoch ?? 0,
        origin: p.origin,
        op: p.op,
        target: p.target,
        content: p.content,
        rationale: p.rationale,
        source: src[p.ord] ?? null,
        mergedAs: mergedAs === null ? null : mergedAs + 1,
        mergedInto: into.map((i) => i + 1).sort((a, b) => a - b),
        mergeGuessed: !lin && merged.length > 0,
        selectedAs: sel ? selIdx + 1 : null,
        applyStatus: sel?.applyStatus ?? null,
        gateStatus: sel?.gateStatus ?? null,
        status: statusOf(step, mergedAs, sel, merged.length > 0),
        shaped: null,
        shapedBy: null,
      });
    }
  }
  linkFeedback(rows);
  return rows;
}

/** Links each rejected edit to the first later edit of its epoch that follows up on it (same target or words). */
function linkFeedback(rows: ProposalRow[]): void {
  for (const r of rows.filter((x) => x.status === "rejected")) {
    const later = rows.find(
      (x) =>
        x.epoch === r.epoch &&
        x.step > r.step &&
        x.shapedBy === null &&
        ((r.target !== null && r.target !== "" && x.target === r.target) || wordJaccard(r.content, x.content) >= 0.3),
    );
    if (later) {
      r.shaped = { step: later.step, key: later.key };
      later.shapedBy = { step: r.step, key: r.key };
    }
  }
}

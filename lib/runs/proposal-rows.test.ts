import { describe, expect, it } from "vitest";
import { filterProposals } from "../contracts/evidence";
import { buildProposalRows, wordJaccard, type EditInput } from "./proposal-rows";
import type { GateEvidenceView as GateEvidence } from "../contracts/evidence";
import { leanPayload, type StoredRunEvent } from "../contracts/stored-events";
import { decisionsOf, lineageOf } from "./run-evidence";

import { preflightSplitWarning, runSplitWarning } from "./split-warning";

const edit = (e: Partial<EditInput> & Pick<EditInput, "step" | "ord" | "stage" | "content">): EditInput => ({
  origin: "failure",
  op: "append",
  target: null,
  rationale: null,
  applyStatus: null,
  gateStatus: null,
  ...e,
});

/** Stored (lean) events as the evidence reads get them, with only the fields a test is about varied. */
const merged = (step: number, from?: number[][]): StoredRunEvent => ({
  type: "patchesMerged",
  step,
  nMerged: from?.length ?? 1,
  fallbacks: 0,
  nEdits: from?.length ?? 1,
  ...(from ? { from } : {}),
});
const selected = (step: number, picked?: number[]): StoredRunEvent => ({
  type: "editsSelected",
  step,
  budget: null,
  lrControlMode: "fixed",
  ranked: false,
  fallback: false,
  nEdits: 1,
  ...(picked ? { merged: picked } : {}),
});
const gateAt = (
  step: number,
  action: "accept_new_best" | "accept" | "reject",
  evidence: GateEvidence,
): StoredRunEvent => ({
  type: "gateDecided",
  step,
  action,
  candidateScore: 0.5,
  currentScoreBefore: 0.5,
  currentScore: 0.5,
  bestScore: 0.5,
  bestStep: step,
  nItems: 6,
  nPaired: 6,
  nErrors: 0,
  nTimeouts: 0,
  nTruncated: 0,
  candidatePairedScore: 0.5,
  currentPairedScore: 0.5,
  reason: null,
  evidence,
});
const slowAt = (epoch: number, action: string, evidence?: GateEvidence): StoredRunEvent => ({
  type: "slowUpdateApplied",
  epoch,
  action,
  content: null,
  selectionHard: null,
  ...(evidence ? { evidence } : {}),
});

describe("proposal rows", () => {
  const edits = [
    // step 1: three proposals; two merge into one, one is dropped; the merged edit is applied, the gate rejects it.
    edit({ step: 1, ord: 0, stage: "proposed", content: "Give the unit of every measured quantity." }),
    edit({
      step: 1,
      ord: 1,
      stage: "proposed",
      content: "Always give the unit of each measured quantity.",
      origin: "success",
    }),
    edit({ step: 1, ord: 2, stage: "proposed", content: "Mention the weather." }),
    edit({ step: 1, ord: 0, stage: "merged", content: "Always give the unit of every measured quantity." }),
    edit({ step: 1, ord: 1, stage: "merged", content: "Cite the page number." }),
    edit({
      step: 1,
      ord: 0,
      stage: "selected",
      content: "Always give the unit of every measured quantity.",
      applyStatus: "applied_append",
      gateStatus: "rejected",
    }),
    // step 2 (same epoch): a follow-up on the rejected edit, applied and accepted.
    edit({ step: 2, ord: 0, stage: "proposed", content: "State the unit of a measured quantity after the number." }),
    edit({ step: 2, ord: 0, stage: "merged", content: "State the unit of a measured quantity after the number." }),
    edit({
      step: 2,
      ord: 0,
      stage: "selected",
      content: "State the unit of a measured quantity after the number.",
      applyStatus: "applied_append",
      gateStatus: "accepted",
    }),
  ];
  const steps = [
    { step: 1, epoch: 1, action: "reject" },
    { step: 2, epoch: 1, action: "accept_new_best" },
  ];
  const sources = new Map([
    [
      1,
      [
        { batch: 0, kind: "failure" as const, minibatch: 0, itemIds: ["q1", "q2"], nEdits: 1 },
        { batch: 0, kind: "failure" as const, minibatch: 1, itemIds: ["q3"], nEdits: 2 },
      ],
    ],
  ]);
  const rows = buildProposalRows({ edits, steps, sources });

  it("follows each proposal through merge, selection, application and the gate", () => {
    expect(rows.map((r) => [r.key, r.mergedAs, r.selectedAs, r.status])).toEqual([
      ["1:0", 1, 1, "rejected"],
      ["1:1", 1, 1, "rejected"],
      ["1:2", null, null, "dropped_at_merge"],
      ["2:0", 1, 1, "accepted"],
    ]);
    expect(rows[0]!.source?.itemIds).toEqual(["q1", "q2"]);
    expect(rows[2]!.source).toMatchObject({ minibatch: 1, itemIds: ["q3"] });
    expect(rows[3]!.source).toBeNull();
  });

  it("links a rejected edit fed back through the step buffer to the later edit it shaped", () => {
    expect(rows[0]!.shaped).toEqual({ step: 2, key: "2:0" });
    expect(rows[3]!.shapedBy).toEqual({ step: 1, key: "1:0" });
    expect(rows[1]!.shaped).toBeNull();
  });

  it("a merged edit over the budget is not selected; an edit whose apply was skipped says so", () => {
    const r = buildProposalRows({
      edits: [
        edit({ step: 3, ord: 0, stage: "proposed", content: "alpha beta gamma" }),
        edit({ step: 3, ord: 1, stage: "proposed", content: "delta epsilon zeta", op: "replace" }),
        edit({ step: 3, ord: 0, stage: "merged", content: "alpha beta gamma" }),
        edit({ step: 3, ord: 1, stage: "merged", content: "delta epsilon zeta", op: "replace" }),
        edit({
          step: 3,
          ord: 0,
          stage: "selected",
          content: "delta epsilon zeta",
          op: "replace",
          applyStatus: "skipped_replace_target_not_found",
          gateStatus: "accepted",
        }),
      ],
      steps: [{ step: 3, epoch: 2, action: "accept" }],
      sources: new Map(),
    });
    expect(r.map((x) => x.status)).toEqual(["not_selected", "skipped"]);
  });

  it("without recorded provenance the merge link is a word match, marked as a guess", () => {
    expect(rows.map((r) => r.mergeGuessed)).toEqual([true, true, true, true]);
    expect(rows[0]!.mergedInto).toEqual([1]);
  });

  it("recorded provenance decides the merge link; a selected merged edit, then words, pick the one followed", () => {
    const recorded = buildProposalRows({
      edits,
      steps,
      sources,
      lineage: lineageOf([
        // Step 1: merged #1 combined proposals 0 and 2, merged #2 combined 1 and 2; the ranking kept #2 only.
        merged(1, [
          [0, 2],
          [1, 2],
        ]),
        selected(1, [1]),
        merged(2, [[0]]),
        selected(2, [0]),
      ]),
    });
    expect(recorded.map((r) => [r.key, r.mergedAs, r.mergedInto, r.selectedAs, r.status, r.mergeGuessed])).toEqual([
      // Words alone would carry 1:0 into merged #1 (the same words) and select it; the record says #1 was not selected.
      ["1:0", 1, [1], null, "not_selected", false],
      ["1:1", 2, [2], 1, "rejected", false],
      // "Mention the weather" was combined into both merged edits: the selected one (#2) is followed.
      ["1:2", 2, [1, 2], 1, "rejected", false],
      ["2:0", 1, [1], 1, "accepted", false],
    ]);
  });

  it("the stored (lean) event payloads keep the lineage while the edit lists go to their own rows", () => {
    const edits = [{ origin: "failure" as const, op: "append", content: "x" }];
    const leanMerged = leanPayload({
      ...{ type: "patchesMerged" as const, step: 1, nMerged: 1, fallbacks: 0, edits, from: [[0, 1]] },
    });
    const picked = leanPayload({
      ...{ type: "editsSelected" as const, step: 1, budget: 1, lrControlMode: "fixed" },
      ...{ ranked: false, fallback: false, edits, merged: [0] },
    });
    const raw = [leanMerged, picked].map((e) => e as Record<string, unknown>);
    expect([raw[0]!.edits, raw[0]!.from, raw[1]!.edits, raw[1]!.merged]).toEqual([undefined, [[0, 1]], undefined, [0]]);
    expect(lineageOf([leanMerged, picked]).get(1)).toEqual({ merged: [[0, 1]], selected: [0] });
  });

  it("a slow update's stored payload keeps its candidate hash and a count, not the per-item results", () => {
    const results = [{ id: "q1", hard: 1, soft: 1, status: "ok" as const }];
    const lean: Record<string, unknown> = leanPayload({
      ...{ type: "slowUpdateApplied" as const, epoch: 2, action: "accept", content: "- g", currentSkill: "# S" },
      ...{ selectionHard: 1, gateScored: { candidateHash: "abc", results } },
    });
    expect(lean.gateScored).toEqual({ candidateHash: "abc", nResults: 1 });
  });

  it("lineage is read only from steps whose events carry it; a resumed step's later record wins", () => {
    const lin = lineageOf([
      merged(1, [[0]]),
      selected(1, [0]),
      merged(2),
      selected(2),
      merged(1, [[1], [0]]),
      selected(1, [1]),
    ]);
    expect([...lin.keys()]).toEqual([1]);
    expect(lin.get(1)).toEqual({ merged: [[1], [0]], selected: [1] });
  });

  it("filters by status, op, origin, step and text", () => {
    expect(filterProposals(rows, { status: "rejected" }).map((r) => r.key)).toEqual(["1:0", "1:1"]);
    expect(filterProposals(rows, { origin: "success" }).map((r) => r.key)).toEqual(["1:1"]);
    expect(filterProposals(rows, { step: 2 }).map((r) => r.key)).toEqual(["2:0"]);
    expect(filterProposals(rows, { text: "WEATHER" }).map((r) => r.key)).toEqual(["1:2"]);
    expect(filterProposals(rows, { op: "replace" })).toEqual([]);
    expect(filterProposals(rows, {})).toHaveLength(4);
  });

  it("word overlap ignores case, punctuation and short words", () => {
    expect(wordJaccard("The unit, always!", "always the UNIT")).toBe(1);
    expect(wordJaccard("", "x")).toBe(0);
  });
});

describe("gate decisions and the small-split warning", () => {
  const ev = (meanDiff: number, nPaired = 6) => ({
    nPaired,
    meanDiff,
    ci95: [0, meanDiff] as [number, number],
    resamples: 2000,
    improved: 1,
    regressed: 0,
    pValue: 1,
    minDetectableDiff: null,
    significant: false,
  });
  it("reads step gates, slow-update gates and the final check from the stored events", () => {
    const d = decisionsOf([
      { type: "stepStarted", step: 1, epoch: 1, stepInEpoch: 1 },
      gateAt(1, "accept", ev(1 / 6)),
      slowAt(1, "inject_placeholder"),
      slowAt(2, "reject", ev(-1 / 6)),
      {
        ...{ type: "finalSelectionChecked", step: 1, hard: 1, soft: 1, gateScore: 1, origin: "step_0001" },
        ...{ skillHash: "h", promoted: true, skipReason: null, bestScore: 1, bestOrigin: "step_0001" },
        evidence: ev(0.5),
      },
    ]);
    expect(d.map((x) => [x.kind, x.step, x.action])).toEqual([
      ["step", 1, "accept"],
      ["slow_update", 1, "reject"],
      ["final", 1, "promoted"],
    ]);
    expect(d[0]!.evidence?.meanDiff).toBeCloseTo(1 / 6, 12);
  });

  it("warns when accepted steps gained less than the split can detect (6 items: only 6 of 6 is significant)", () => {
    const d = decisionsOf([
      gateAt(1, "accept_new_best", ev(1)),
      gateAt(2, "accept", ev(1 / 6)),
      gateAt(3, "reject", ev(0)),
    ]);
    expect(runSplitWarning(6, d)).toMatch(/^1 of 2 accepted .* 100\.0 points .* Steps 2\.$/);
    expect(runSplitWarning(6, d.slice(0, 1))).toBeNull();
    expect(runSplitWarning(6, [])).toBeNull();
  });

  it("pre-flight: under 6 items nothing is significant; 60 items detect 10 points", () => {
    expect(preflightSplitWarning(5)).toMatch(/no difference can be significant/);
    expect(preflightSplitWarning(20)).toMatch(/30\.0 points/);
    expect(preflightSplitWarning(60)).toBeNull();
  });
});

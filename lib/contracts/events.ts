/**
 * Engine events: past tense, discriminated by `type`. The engine emits them in order and the worker stores
 * them lean as RunEvent rows; every reader, the browser included, parses a stored event with the lean schema
 * of its type (stored-events.ts). `EngineEventSchema` types the engine side.
 */
import { z } from "zod";
import {
  EditReportRowSchema,
  EditViewSchema,
  EvalItemSchema,
  GateEvidenceSchema,
  GateReviewSchema,
  ProposalSourceSchema,
  TokensByStageSchema,
} from "./event-parts";

export {
  GateEvidenceSchema,
  GateReviewSchema,
  type EditView,
  type EvalItem,
  type GateReviewOutcome,
  type ProposalSource,
} from "./event-parts";

/** The splits `skillopt eval` scores a skill on (valid_seen is the selection split, valid_unseen the test split). */
export const EVAL_SPLITS = ["all", "train", "valid_seen", "valid_unseen"] as const;

const step = z.number().int();
const score = z.number();
const count = z.number().int();

/** Rows that were not answers, by why; they are never scored, only counted. */
const unanswered = { nErrors: count, nTimeouts: count, nTruncated: count };

export const EngineEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("runStarted"),
    totalSteps: z.number().int(),
    stepsPerEpoch: z.number().int(),
    numEpochs: z.number().int(),
    trainSize: z.number().int(),
    selectionSize: z.number().int(),
    testSize: z.number().int(),
    resumedFromStep: z.number().int(),
  }),
  z.object({
    type: z.literal("baselineScored"),
    /** Means over the answered items. */
    hard: score,
    soft: score,
    score,
    skillHash: z.string(),
    nItems: count,
    ...unanswered,
    results: z.array(EvalItemSchema),
  }),
  z.object({ type: z.literal("stepStarted"), step, epoch: step, stepInEpoch: step }),
  z.object({
    type: z.literal("rolloutCompleted"),
    step,
    /** Means over the answered items. */
    hard: score,
    soft: score,
    n: z.number().int(),
    ...unanswered,
    results: z.array(EvalItemSchema),
  }),
  z.object({
    type: z.literal("patchesProposed"),
    step,
    nFailurePatches: z.number().int(),
    nSuccessPatches: z.number().int(),
    nInvalid: z.number().int(),
    edits: z.array(EditViewSchema),
    /** Which analyst proposed which edits (consecutive runs of `edits`); absent in events stored before it existed. */
    sources: z.array(ProposalSourceSchema).optional(),
  }),
  z.object({
    type: z.literal("patchesMerged"),
    step,
    nMerged: z.number().int(),
    fallbacks: z.number().int(),
    edits: z.array(EditViewSchema),
    /**
     * Merge provenance, per merged edit: indices into this step's proposed edits that the merge calls combined
     * into it. Kept in the stored payload (the edit lists live in their own rows); absent in older runs.
     */
    from: z.array(z.array(z.number().int())).optional(),
  }),
  z.object({
    type: z.literal("editsSelected"),
    step,
    budget: z.number().int().nullable(),
    lrControlMode: z.string(),
    ranked: z.boolean(),
    fallback: z.boolean(),
    edits: z.array(EditViewSchema),
    /** Per selected edit, the index of the merged edit it is (merge provenance); absent in older runs. */
    merged: z.array(z.number().int()).optional(),
  }),
  z.object({
    type: z.literal("candidateBuilt"),
    step,
    candidateHash: z.string(),
    candidate: z.string(),
    applyReport: z.array(EditReportRowSchema).nullable(),
  }),
  z.object({
    type: z.literal("candidateScored"),
    step,
    /** The candidate's own means over the items it answered. */
    hard: score,
    soft: score,
    gateScore: score,
    cached: z.boolean(),
    nItems: count,
    ...unanswered,
    results: z.array(EvalItemSchema),
  }),
  z.object({
    type: z.literal("gateDecided"),
    step,
    /** skip_errors: too many selection items unanswered to compare; `reason` says how many and why. */
    action: z.enum(["accept_new_best", "accept", "reject", "force_accept", "skip_errors"]),
    candidateScore: score,
    currentScoreBefore: score,
    currentScore: score,
    bestScore: score,
    bestStep: z.number().int(),
    /** Selection items, and those both skills answered: the comparison is over these only. */
    nItems: count,
    nPaired: count,
    /** Items left out of the comparison, by why (the candidate's reason first). */
    ...unanswered,
    /** Both skills' gate scores over the paired items (equal to the stored scores when nothing was left out). */
    candidatePairedScore: score,
    currentPairedScore: score,
    reason: z.string().nullable(),
    /** Paired statistics of the decision (lib/engine/gate-evidence.ts); null when per-item results are unknown. */
    evidence: GateEvidenceSchema.nullable().optional(),
    /** Human review at the gate (evaluation.human_review): the decision, who made it, and the gate's own. */
    review: GateReviewSchema.optional(),
  }),
  z.object({
    type: z.literal("stepCommitted"),
    step,
    epoch: step,
    action: z.string(),
    record: z.record(z.string(), z.unknown()),
    currentSkill: z.string(),
    currentHash: z.string(),
    bestSkill: z.string(),
    bestHash: z.string(),
    currentScore: score,
    bestScore: score,
    bestStep: z.number().int(),
    /** Where the best skill came from (initial_skill, step_0009, slow_update_epoch_03). Absent in events stored before it existed. */
    bestOrigin: z.string().optional(),
    tokens: TokensByStageSchema,
  }),
  z.object({
    type: z.literal("slowUpdateApplied"),
    epoch: step,
    action: z.string(),
    content: z.string().nullable(),
    currentSkill: z.string(),
    selectionHard: score.nullable(),
    /** The best skill after the slow update (it becomes best only through the gate). */
    bestScore: score.nullable().optional(),
    bestOrigin: z.string().optional(),
    bestSkill: z.string().optional(),
    /** Paired statistics of the slow-update gate, when it ran one. */
    evidence: GateEvidenceSchema.nullable().optional(),
    /** The slow-update gate's per-item results for its candidate (absent when the score came from the cache). */
    gateScored: z.object({ candidateHash: z.string(), results: z.array(EvalItemSchema) }).optional(),
  }),
  z.object({
    type: z.literal("metaSkillUpdated"),
    epoch: step,
    action: z.string(),
    content: z.string().nullable(),
  }),
  z.object({ type: z.literal("epochCompleted"), epoch: step, currentScore: score, bestScore: score }),
  z.object({
    type: z.literal("testScored"),
    which: z.enum(["initial", "best", "final"]),
    /** Means over the answered items. */
    hard: score,
    soft: score,
    nItems: count,
    ...unanswered,
    byTaskType: z.record(z.string(), z.object({ total: z.number(), hard_acc: z.number() })),
    results: z.array(EvalItemSchema),
  }),
  /**
   * The end-of-run check: the final skill (when it differs from best) scored on the selection split and
   * promoted to best when it beats it on the items both answered.
   */
  z.object({
    type: z.literal("finalSelectionChecked"),
    /** After this many steps (the last completed one). */
    step: z.number().int(),
    hard: score,
    soft: score,
    gateScore: score,
    origin: z.string(),
    skillHash: z.string(),
    promoted: z.boolean(),
    skipReason: z.string().nullable(),
    bestScore: score.nullable(),
    bestOrigin: z.string(),
    bestSkill: z.string(),
    /** Paired statistics of final vs best, when they were compared. */
    evidence: GateEvidenceSchema.nullable().optional(),
  }),
  /**
   * A/A noise floor (`evaluation.noise_floor_repeats`): the current skill re-scored K times on the selection
   * split at the start of an epoch, to show how far the target's score moves with nothing changed.
   */
  z.object({
    type: z.literal("noiseFloorMeasured"),
    epoch: step,
    /** The gate score (over answered items) of each repeat. */
    scores: z.array(score),
    mean: score,
    /** Sample standard deviation of `scores` (0 for one repeat). */
    sd: score,
    /** Lowest and highest repeat score: the band drawn on the selection chart. */
    low: score,
    high: score,
    nItems: count,
  }),
  /** `skillopt eval`: one skill scored on one split with no optimizer call — the whole of an evaluation run. */
  z.object({
    type: z.literal("evalCompleted"),
    split: z.enum(EVAL_SPLITS),
    skillHash: z.string(),
    /** Means over the answered items. */
    hard: score,
    soft: score,
    nItems: count,
    ...unanswered,
    results: z.array(EvalItemSchema),
  }),
  z.object({
    type: z.literal("runCompleted"),
    stopReason: z.string(),
    bestSkill: z.string(),
    summary: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal("runFailed"), message: z.string(), step: z.number().int().nullable() }),
  z.object({ type: z.literal("runCancelled"), step: z.number().int() }),
  /** The budget ran out: the run stops at a safe point and can be resumed with a larger budget. */
  z.object({ type: z.literal("runPaused"), reason: z.string(), step: z.number().int() }),
]);

export type EngineEvent = z.infer<typeof EngineEventSchema>;
export type EngineEventType = EngineEvent["type"];
export type EngineEventOf<T extends EngineEventType> = Extract<EngineEvent, { type: T }>;

/** Events that belong to one training step (they carry its `step`). */
export const STEP_EVENT_TYPES: readonly EngineEventType[] = [
  "stepStarted",
  "rolloutCompleted",
  "patchesProposed",
  "patchesMerged",
  "editsSelected",
  "candidateBuilt",
  "candidateScored",
  "gateDecided",
  "stepCommitted",
];

/**
 * Events the engine emits right after saving its state: a resumed run never repeats work before the last
 * of them, so only the events after it can be replayed by a resumed attempt.
 */
export const COMMIT_POINT_TYPES: readonly EngineEventType[] = [
  "baselineScored",
  "stepCommitted",
  "slowUpdateApplied",
  "metaSkillUpdated",
  "epochCompleted",
];

/**
 * Human review at the gate over HTTP: the pending review the run page shows, and the decision it posts.
 */
import { z } from "zod";
import { GateEvidenceSchema } from "./events";

/** Longest note and edited skill a decision may carry. */
export const REVIEW_LIMITS = { note: 4_000, author: 100, skill: 200_000 } as const;

export const SubmitReviewSchema = z
  .strictObject({
    step: z.number().int().min(1),
    decision: z.enum(["accept", "reject", "edit"]),
    note: z.string().max(REVIEW_LIMITS.note).default(""),
    author: z.string().trim().max(REVIEW_LIMITS.author).default(""),
    /** The reviewer's version of the candidate; required for `edit`, refused otherwise. */
    editedSkill: z.string().max(REVIEW_LIMITS.skill).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.decision === "edit" && !v.editedSkill?.trim())
      ctx.addIssue({ code: "custom", path: ["editedSkill"], message: "edit-then-accept needs the edited skill text" });
    if (v.decision !== "edit" && v.editedSkill !== undefined)
      ctx.addIssue({ code: "custom", path: ["editedSkill"], message: "only an edit decision carries a skill" });
  });
export type SubmitReviewInput = z.input<typeof SubmitReviewSchema>;

/** What the worker stored when the gate asked (the engine's request). */
export const ReviewRequestSchema = z.object({
  step: z.number().int(),
  mode: z.enum(["ask", "required"]),
  timeoutS: z.number(),
  currentSkill: z.string(),
  candidate: z.string(),
  candidateHash: z.string(),
  automatic: z.string(),
  candidateScore: z.number(),
  currentScore: z.number(),
  bestScore: z.number(),
  evidence: GateEvidenceSchema.nullable(),
});
export type ReviewRequest = z.infer<typeof ReviewRequestSchema>;

export interface GateReviewView {
  step: number;
  mode: "ask" | "required";
  requestedAt: string;
  deadlineAt: string | null;
  request: ReviewRequest;
  decision: "accept" | "reject" | "edit" | "expired" | null;
  note: string | null;
  author: string | null;
  decidedAt: string | null;
}

export interface RunReviewsResponse {
  /** The open review the run waits on, if any. */
  pending: GateReviewView | null;
  /** Every settled review of the run, oldest first (without the skill texts). */
  decided: Array<Omit<GateReviewView, "request"> & { automatic: string }>;
}

/**
 * Human review at the gate, in the database: the worker's reviewer port asks (a GateReview row and a
 * `reviewRequested` event), the dashboard decides (the row, a `reviewDecided` event, and the run back on
 * the queue), and the workers' reconcile pass requeues runs whose `ask` review expired. Every status change
 * is a conditional update committed with its event, as in ./run-recovery.ts.
 */
import { randomUUID } from "node:crypto";
import type { GateReviewView, ReviewRequest, RunReviewsResponse, SubmitReviewInput } from "../contracts/review";
import { ReviewRequestSchema } from "../contracts/review";
import { AppError } from "../errors";
import { getDb, type Db, type DbTx } from "./client";
import { appendRunEventTx, TX_OPTIONS } from "./engine-events";
import { getRun } from "./runs";

type Opts = { db?: Db };

export type ReviewAnswer =
  | { kind: "decided"; decision: "accept" | "reject" | "edit"; note: string; author: string; editedSkill?: string }
  | { kind: "expired" }
  | { kind: "pending" };

/**
 * The reviewer port's answer for a run's gate. The first ask records the request (with its deadline for
 * `ask`); later asks return the decision, `expired` once an `ask` deadline has passed, or `pending`.
 */
export async function askForReview(runId: string, req: ReviewRequest, now: Date, { db = getDb() }: Opts = {}) {
  return db.$transaction(async (tx): Promise<ReviewAnswer> => {
    const row = await tx.gateReview.findUnique({ where: { runId_step: { runId, step: req.step } } });
    if (!row) {
      const deadlineAt = req.mode === "ask" ? new Date(now.getTime() + req.timeoutS * 1000) : null;
      await tx.gateReview.create({
        data: {
          id: randomUUID(),
          runId,
          step: req.step,
          mode: req.mode,
          requestJson: JSON.stringify(ReviewRequestSchema.parse(req)),
          requestedAt: now,
          deadlineAt,
        },
      });
      await appendRunEventTx(tx, runId, {
        type: "reviewRequested",
        step: req.step,
        mode: req.mode,
        automatic: req.automatic,
        deadlineAt: deadlineAt?.toISOString() ?? null,
      });
      return { kind: "pending" };
    }
    if (row.decision === "accept" || row.decision === "reject" || row.decision === "edit") {
      return {
        kind: "decided",
        decision: row.decision,
        note: row.note ?? "",
        author: row.author ?? "",
        ...(row.decision === "edit" && row.editedSkill !== null ? { editedSkill: row.editedSkill } : {}),
      };
    }
    if (row.decision === "expired") return { kind: "expired" };
    if (req.mode === "ask" && row.deadlineAt && row.deadlineAt.getTime() <= now.getTime()) {
      await tx.gateReview.update({ where: { id: row.id }, data: { decision: "expired", decidedAt: now } });
      await appendRunEventTx(tx, runId, {
        type: "reviewDecided",
        step: req.step,
        decision: "expired",
        note: "",
        author: "",
      });
      return { kind: "expired" };
    }
    return { kind: "pending" };
  }, TX_OPTIONS);
}

/** Puts an awaiting_review run back on the queue; returns the job generation to enqueue, or null. */
async function requeueTx(tx: DbTx, runId: string, reason: string): Promise<number | null> {
  const run = await tx.run.findUnique({ where: { id: runId }, select: { status: true, jobGen: true } });
  if (run?.status !== "awaiting_review") return null;
  const gen = run.jobGen + 1;
  const res = await tx.run.updateMany({
    where: { id: runId, status: "awaiting_review", jobGen: run.jobGen },
    data: { status: "queued", workerId: null, jobGen: gen, errorMessage: null },
  });
  if (res.count !== 1) return null;
  await appendRunEventTx(tx, runId, { type: "runQueued", reason });
  return gen;
}

/**
 * The dashboard's decision on the open review at `step`. Refused (409) when no review waits there; the
 * run goes back to the queue when it already stopped (else the worker requeues it as it stops).
 */
export async function submitReview(
  runId: string,
  input: Required<Pick<SubmitReviewInput, "step" | "decision">> & {
    note: string;
    author: string;
    editedSkill?: string;
  },
  { db = getDb() }: Opts = {},
): Promise<{ gen: number | null }> {
  await getRun(runId, { db });
  return db.$transaction(async (tx) => {
    const res = await tx.gateReview.updateMany({
      where: { runId, step: input.step, decision: null },
      data: {
        decision: input.decision,
        note: input.note,
        author: input.author,
        editedSkill: input.decision === "edit" ? (input.editedSkill ?? null) : null,
        decidedAt: new Date(),
      },
    });
    if (res.count !== 1) {
      throw new AppError("CONFLICT", `run ${runId} has no open review at step ${input.step}`, {
        userMessage: `No review is waiting at step ${input.step} of this run (it was decided or timed out; reload).`,
        field: "step",
      });
    }
    await appendRunEventTx(tx, runId, {
      type: "reviewDecided",
      step: input.step,
      decision: input.decision,
      note: input.note,
      author: input.author,
    });
    return { gen: await requeueTx(tx, runId, `review of step ${input.step}: ${input.decision}`) };
  }, TX_OPTIONS);
}

/**
 * The worker stopped the run at a gate that waits. When the decision (or an expiry) came in meanwhile, the
 * run is requeued at once; returns that job generation, or null.
 */
export async function requeueIfReviewSettled(runId: string, { db = getDb() }: Opts = {}): Promise<number | null> {
  return db.$transaction(async (tx) => {
    const open = await tx.gateReview.findFirst({ where: { runId, decision: null } });
    if (open) return null;
    return requeueTx(tx, runId, "review decided while the run was stopping");
  }, TX_OPTIONS);
}

/** Runs waiting on an `ask` review whose deadline has passed: back on the queue (their fallback applies). */
export async function requeueExpiredReviews(now: Date, { db = getDb() }: Opts = {}) {
  const due = await db.gateReview.findMany({
    where: { decision: null, deadlineAt: { lte: now }, run: { status: "awaiting_review" } },
    select: { runId: true, step: true },
  });
  const out: Array<{ runId: string; gen: number }> = [];
  for (const r of due) {
    const gen = await db.$transaction(
      (tx) => requeueTx(tx, r.runId, `review of step ${r.step} timed out; its fallback applies`),
      TX_OPTIONS,
    );
    if (gen !== null) out.push({ runId: r.runId, gen });
  }
  return out;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
type Row = NonNullable<Awaited<ReturnType<Db["gateReview"]["findFirst"]>>>;

function viewOf(row: Row): GateReviewView {
  return {
    step: row.step,
    mode: row.mode === "required" ? "required" : "ask",
    requestedAt: row.requestedAt.toISOString(),
    deadlineAt: iso(row.deadlineAt),
    request: ReviewRequestSchema.parse(JSON.parse(row.requestJson)),
    decision: (row.decision as GateReviewView["decision"]) ?? null,
    note: row.note,
    author: row.author,
    decidedAt: iso(row.decidedAt),
  };
}

export async function listRunReviews(runId: string, { db = getDb() }: Opts = {}): Promise<RunReviewsResponse> {
  await getRun(runId, { db });
  const rows = await db.gateReview.findMany({ where: { runId }, orderBy: { step: "asc" } });
  const open = rows.find((r) => r.decision === null);
  return {
    pending: open ? viewOf(open) : null,
    decided: rows
      .filter((r) => r.decision !== null)
      .map((r) => {
        const { request, ...rest } = viewOf(r);
        return { ...rest, automatic: request.automatic };
      }),
  };
}

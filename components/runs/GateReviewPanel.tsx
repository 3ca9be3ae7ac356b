"use client";
import { useState } from "react";
import type { GateReviewView, RunReviewsResponse } from "@/lib/contracts/review";
import { SkillDiff } from "../diff/SkillDiff";
import { formatDelta, formatScore, formatTimestamp, shortHash } from "../format";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { useRunReviews, useSubmitReview } from "./use-reviews";

/**
 * Human review at the gate: while the run waits, the candidate's diff against the current skill with the
 * gate's scores and evidence, and Accept / Reject / Edit-then-accept with a note; afterwards, every decision.
 */
export function GateReviewPanel({ runId, status }: { runId: string; status: string }) {
  const { data, error } = useRunReviews(runId, status);
  if (error) return <Notice tone="error">Could not load the reviews: {error.message}</Notice>;
  if (!data || (!data.pending && data.decided.length === 0)) return null;
  return (
    <div className="space-y-4">
      {data.pending && status === "awaiting_review" && <PendingReview runId={runId} review={data.pending} />}
      {data.decided.length > 0 && <DecidedReviews decided={data.decided} />}
    </div>
  );
}

function PendingReview({ runId, review }: { runId: string; review: GateReviewView }) {
  const req = review.request;
  const submit = useSubmitReview(runId);
  const [note, setNote] = useState("");
  const [author, setAuthor] = useState("");
  const [editing, setEditing] = useState(false);
  const [edited, setEdited] = useState(req.candidate);
  const send = (decision: "accept" | "reject" | "edit") =>
    submit.mutate({
      step: review.step,
      decision,
      note,
      author,
      ...(decision === "edit" ? { editedSkill: edited } : {}),
    });
  const deadline =
    review.mode === "required"
      ? "It waits until someone decides."
      : `Without a decision by ${formatTimestamp(review.deadlineAt)} the run takes its fallback.`;
  return (
    <Card title={`Step ${review.step} waits for your review`} testId="gate-review">
      <div className="space-y-3 text-sm">
        <p className="text-gray-700">
          The gate would <b data-testid="review-automatic">{req.automatic}</b> this candidate: selection{" "}
          {formatScore(req.candidateScore)} against the current skill&apos;s {formatScore(req.currentScore)} (best{" "}
          {formatScore(req.bestScore)}). {deadline}
        </p>
        <ReviewEvidence evidence={req.evidence} />
        <SkillDiff
          oldText={req.currentSkill}
          newText={req.candidate}
          oldLabel="Current skill"
          newLabel={`Candidate ${shortHash(req.candidateHash)}`}
        />
        {editing && (
          <label className="block">
            <span className="text-xs font-medium text-gray-700">
              Your version of the candidate (scored before it is kept)
            </span>
            <textarea
              className="mt-1 h-64 w-full rounded-md border border-gray-300 p-2 font-mono text-xs"
              value={edited}
              onChange={(e) => setEdited(e.target.value)}
              data-testid="review-edited-skill"
            />
          </label>
        )}
        <div className="grid gap-2 sm:grid-cols-[1fr_14rem]">
          <label className="block">
            <span className="text-xs font-medium text-gray-700">Note (recorded in the event log and EDITS.md)</span>
            <textarea
              className="mt-1 h-16 w-full rounded-md border border-gray-300 p-2 text-sm"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              data-testid="review-note"
            />
          </label>
          <label className="block">
            <span className="text-xs font-medium text-gray-700">Your name</span>
            <input
              className="mt-1 w-full rounded-md border border-gray-300 px-2 py-1 text-sm"
              value={author}
              onChange={(e) => setAuthor(e.target.value)}
              data-testid="review-author"
            />
          </label>
        </div>
        {submit.error && <Notice tone="error">{submit.error.message}</Notice>}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="primary"
            disabled={submit.isPending}
            onClick={() => send("accept")}
            data-testid="review-accept"
          >
            Accept
          </Button>
          <Button
            variant="danger"
            disabled={submit.isPending}
            onClick={() => send("reject")}
            data-testid="review-reject"
          >
            Reject
          </Button>
          {editing ? (
            <Button
              disabled={submit.isPending || !edited.trim()}
              onClick={() => send("edit")}
              data-testid="review-edit-accept"
            >
              Accept my edited version
            </Button>
          ) : (
            <Button disabled={submit.isPending} onClick={() => setEditing(true)} data-testid="review-edit">
              Edit, then accept…
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}

function ReviewEvidence({ evidence }: { evidence: GateReviewView["request"]["evidence"] }) {
  if (!evidence) return <p className="text-xs text-gray-500">No per-item results to pair: no gate evidence.</p>;
  const [lo, hi] = evidence.ci95;
  return (
    <dl
      className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md bg-gray-50 p-2 text-xs sm:grid-cols-4"
      data-testid="review-evidence"
    >
      <dt className="text-gray-500">Paired items</dt>
      <dd>{evidence.nPaired}</dd>
      <dt className="text-gray-500">Mean difference (95 % CI)</dt>
      <dd>
        {formatDelta(evidence.meanDiff)} ({formatDelta(lo)} to {formatDelta(hi)})
      </dd>
      <dt className="text-gray-500">Improved / regressed items</dt>
      <dd>
        {evidence.improved} / {evidence.regressed}
      </dd>
      <dt className="text-gray-500">Sign test p</dt>
      <dd>
        {evidence.pValue.toFixed(3)} {evidence.significant ? "(significant)" : "(not significant)"}
      </dd>
    </dl>
  );
}

function DecidedReviews({ decided }: { decided: RunReviewsResponse["decided"] }) {
  return (
    <Card title="Human reviews at the gate" testId="review-history" bodyClassName="p-0">
      <table className="w-full text-left text-xs">
        <thead className="bg-gray-50 text-gray-600">
          <tr>
            <th className="px-3 py-1.5">Step</th>
            <th className="px-3 py-1.5">Gate said</th>
            <th className="px-3 py-1.5">Decision</th>
            <th className="px-3 py-1.5">By</th>
            <th className="px-3 py-1.5">Note</th>
          </tr>
        </thead>
        <tbody>
          {decided.map((r) => (
            <tr key={r.step} className="border-t border-gray-100">
              <td className="px-3 py-1.5">{r.step}</td>
              <td className="px-3 py-1.5">{r.automatic}</td>
              <td className="px-3 py-1.5 font-medium">
                {r.decision === "expired" ? "timed out (fallback)" : r.decision}
              </td>
              <td className="px-3 py-1.5">{r.decision === "expired" ? "—" : r.author || "anonymous"}</td>
              <td className="px-3 py-1.5 whitespace-pre-wrap">{r.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

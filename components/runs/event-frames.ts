/**
 * Pure helpers over SSE frames: merging replays into the cached list (dedupe by seq, bounded size),
 * the step a frame belongs to, and a one-line summary for the event log.
 */
import type { StreamFrame } from "@/lib/contracts/run-events";
import { describeCoverage, describeUnanswered } from "@/lib/contracts/coverage";
import { formatScore, shortHash } from "../format";

/** The event log keeps the most recent frames only; the run's tables hold the full history. */
export const MAX_FRAMES = 2_000;

/** Seqs a `runResumed` frame says were replaced by the resumed attempt's own events. */
function supersededBy(frames: readonly StreamFrame[]): Set<number> {
  const out = new Set<number>();
  for (const f of frames) {
    const list = f.type === "runResumed" ? f.payload.superseded : null;
    if (Array.isArray(list)) for (const s of list) if (typeof s === "number") out.add(s);
  }
  return out;
}

/**
 * Appends frames newer than the last cached one (replays after reconnects are dropped), keeping the tail.
 * A resumed run's `runResumed` frame removes the earlier attempt's uncommitted events it superseded, so a
 * page that was open during the crash shows every step once, as a fresh load does.
 */
export function mergeFrames(
  old: readonly StreamFrame[] | undefined,
  incoming: readonly StreamFrame[],
  cap = MAX_FRAMES,
): StreamFrame[] {
  const base = old ?? [];
  let last = base.length > 0 ? base[base.length - 1]!.seq : 0;
  const fresh: StreamFrame[] = [];
  for (const f of [...incoming].sort((a, b) => a.seq - b.seq)) {
    if (f.seq > last) {
      fresh.push(f);
      last = f.seq;
    }
  }
  if (fresh.length === 0) return base as StreamFrame[];
  const gone = supersededBy(fresh);
  const kept = gone.size > 0 ? base.filter((f) => !gone.has(f.seq)) : base;
  const merged = kept.concat(fresh);
  return merged.length > cap ? merged.slice(merged.length - cap) : merged;
}

type Payload = Record<string, unknown>;
const num = (p: Payload, k: string): number | null => (typeof p[k] === "number" ? (p[k] as number) : null);
const str = (p: Payload, k: string): string => (typeof p[k] === "string" ? (p[k] as string) : "");
const sc = (p: Payload, k: string) => formatScore(num(p, k));

/** The global step a frame is about, when it names one. */
export function frameStep(frame: StreamFrame): number | null {
  return num(frame.payload, "step");
}

const counts = (p: Payload) => ({
  nErrors: num(p, "nErrors") ?? 0,
  nTimeouts: num(p, "nTimeouts") ?? 0,
  nTruncated: num(p, "nTruncated") ?? 0,
});

/** " (2 errors, 1 truncated not answered)" or "". */
function unanswered(p: Payload): string {
  const text = describeUnanswered(counts(p));
  return text ? ` (${text} not answered)` : "";
}

/** The gate's basis when some items were left out, and its skip reason. */
function gateCoverage(p: Payload): string {
  const nItems = num(p, "nItems");
  const nPaired = num(p, "nPaired");
  if (nItems === null || nPaired === null || nPaired >= nItems) return "";
  const reason = str(p, "reason");
  return `; ${describeCoverage({ nItems, nPaired, ...counts(p) })}${reason ? ` — ${reason}` : ""}`;
}

function countApplied(p: Payload): string {
  const report = p.applyReport;
  if (!Array.isArray(report)) return "";
  const applied = report.filter((r) => (r as Payload | null)?.status === "applied").length;
  return `, ${applied}/${report.length} edits applied`;
}

/** "2026-12-02 04:05 UTC" from an ISO time (no locale, so server and browser render the same text). */
const utc = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 16).replace("T", " ")} UTC` : iso;
const by = (author: string) => (author.trim() ? `by ${author.trim()}` : "by a reviewer");
const quoted = (note: string) => (note.trim() ? ` — “${note.trim()}”` : "");
const REVIEW_VERB: Record<string, string> = { accept: "accepted", reject: "rejected", edit: "edited, then accepted" };

function reviewRequested(p: Payload): string {
  const deadline = str(p, "deadlineAt");
  const wait =
    str(p, "mode") === "ask" && deadline
      ? `; if no one answers by ${utc(deadline)} the fallback decision applies`
      : "; the run waits for a reviewer";
  return `step ${num(p, "step")} awaits human review (the gate would ${str(p, "automatic") || "decide"})${wait}`;
}

function reviewDecided(p: Payload): string {
  const decision = str(p, "decision");
  if (decision === "expired") return `step ${num(p, "step")} review timed out: the fallback decision applies`;
  return `step ${num(p, "step")} review: ${REVIEW_VERB[decision] ?? decision} ${by(str(p, "author"))}${quoted(str(p, "note"))}`;
}

/** The human review behind a gate decision, when there was one. */
function gateReview(p: Payload): string {
  const r = p.review as Payload | undefined;
  if (!r || typeof r !== "object") return "";
  const gate = `gate said ${str(r, "automatic")}`;
  if (str(r, "source") === "timeout")
    return `; review timed out → fallback ${str(r, "decision") === "gate" ? "to the gate's decision" : str(r, "decision")} (${gate})`;
  return `; ${REVIEW_VERB[str(r, "decision")] ?? str(r, "decision")} ${by(str(r, "author"))} (${gate})${quoted(str(r, "note"))}`;
}

const SUMMARIES: Record<string, (p: Payload) => string> = {
  runQueued: (p) => (str(p, "reason") ? `queued: ${str(p, "reason")}` : "queued"),
  runClaimed: (p) => (str(p, "workerId") ? `claimed by ${str(p, "workerId")}` : "claimed by a worker"),
  runStarted: (p) =>
    `${num(p, "totalSteps")} steps (${num(p, "numEpochs")} epochs × ${num(p, "stepsPerEpoch")}); splits ` +
    `${num(p, "trainSize")}/${num(p, "selectionSize")}/${num(p, "testSize")}` +
    ((num(p, "resumedFromStep") ?? 0) > 0 ? `; resumed after step ${num(p, "resumedFromStep")}` : ""),
  baselineScored: (p) => `baseline selection ${sc(p, "score")} (hard ${sc(p, "hard")}, soft ${sc(p, "soft")})`,
  stepStarted: (p) => `step ${num(p, "step")} started (epoch ${num(p, "epoch")}, #${num(p, "stepInEpoch")})`,
  rolloutCompleted: (p) =>
    `train rollout hard ${sc(p, "hard")} soft ${sc(p, "soft")} on ${num(p, "n")} items${unanswered(p)}`,
  patchesProposed: (p) =>
    `${num(p, "nFailurePatches")} failure + ${num(p, "nSuccessPatches")} success patches` +
    ((num(p, "nInvalid") ?? 0) > 0 ? `, ${num(p, "nInvalid")} invalid` : ""),
  patchesMerged: (p) =>
    `merged into ${num(p, "nMerged")} edits` +
    ((num(p, "fallbacks") ?? 0) > 0 ? ` (${num(p, "fallbacks")} fallbacks)` : ""),
  editsSelected: (p) =>
    `${num(p, "nEdits") ?? "?"} edits selected, budget ${num(p, "budget") ?? "none"}${p.ranked ? " (ranked)" : ""}`,
  candidateBuilt: (p) => `candidate ${shortHash(str(p, "candidateHash"))}${countApplied(p)}`,
  candidateScored: (p) =>
    `candidate hard ${sc(p, "hard")} soft ${sc(p, "soft")}, gate ${sc(p, "gateScore")}${p.cached ? " (cached)" : ""}${unanswered(p)}`,
  gateDecided: (p) => {
    // When items went unanswered, the comparison was over the paired items: show those scores.
    const partial = gateCoverage(p);
    const [cand, cur] = partial
      ? ["candidatePairedScore", "currentPairedScore"]
      : ["candidateScore", "currentScoreBefore"];
    return `${str(p, "action")}: candidate ${sc(p, cand)} vs current ${sc(p, cur)}; best ${sc(p, "bestScore")}${partial}${gateReview(p)}`;
  },
  reviewRequested,
  reviewDecided,
  stepCommitted: (p) => `committed (${str(p, "action")}): current ${sc(p, "currentScore")}, best ${sc(p, "bestScore")}`,
  slowUpdateApplied: (p) =>
    `epoch ${num(p, "epoch")} slow update: ${str(p, "action")}` +
    (num(p, "selectionHard") !== null ? `, selection ${sc(p, "selectionHard")}` : ""),
  finalSelectionChecked: (p) =>
    `final selection check: ${sc(p, "gateScore")}` +
    (str(p, "skipReason")
      ? `, not compared (${str(p, "skipReason")})`
      : p.promoted
        ? " — promoted to best"
        : `, best stays ${sc(p, "bestScore")}`),
  metaSkillUpdated: (p) => `epoch ${num(p, "epoch")} meta skill: ${str(p, "action")}`,
  epochCompleted: (p) => `epoch ${num(p, "epoch")} done: current ${sc(p, "currentScore")}, best ${sc(p, "bestScore")}`,
  testScored: (p) => `test (${str(p, "which")}) hard ${sc(p, "hard")} soft ${sc(p, "soft")}`,
  runCompleted: (p) => `completed: ${str(p, "stopReason") || "done"}`,
  runFailed: (p) => `failed${num(p, "step") !== null ? ` at step ${num(p, "step")}` : ""}: ${str(p, "message")}`,
  runCancelled: (p) => `cancelled at step ${num(p, "step")}`,
  cancelRequested: () => "cancel requested",
  runResumeRequested: () => "resume requested",
  runInterrupted: (p) => `interrupted${str(p, "reason") ? `: ${str(p, "reason")}` : ""}`,
  workerLost: (p) =>
    `worker ${str(p, "workerId") || "(unknown)"} lost${str(p, "detectedBy") ? ` (${str(p, "detectedBy")})` : ""}`,
  runResumed: (p) => {
    const n = Array.isArray(p.superseded) ? p.superseded.length : 0;
    return (
      `resumed from step ${num(p, "fromStep")}` + (n > 0 ? `; ${n} events of the interrupted attempt replaced` : "")
    );
  },
};

/** One line describing the frame; unknown types list their scalar fields. */
export function summarizeFrame(frame: StreamFrame): string {
  const f = SUMMARIES[frame.type];
  if (f) return f(frame.payload);
  return Object.entries(frame.payload)
    .filter(([k, v]) => k !== "type" && (typeof v === "string" || typeof v === "number" || typeof v === "boolean"))
    .slice(0, 4)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
}

/** Event types drawn in warning/error colours in the log. */
export function frameTone(type: string): "error" | "warn" | "good" | "plain" {
  if (type === "runFailed") return "error";
  if (
    type === "runInterrupted" ||
    type === "runCancelled" ||
    type === "cancelRequested" ||
    type === "workerLost" ||
    type === "reviewRequested"
  )
    return "warn";
  if (type === "runCompleted" || type === "baselineScored" || type === "testScored") return "good";
  return "plain";
}

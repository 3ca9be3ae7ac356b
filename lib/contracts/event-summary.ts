/**
 * One sentence per stored run event, read from the typed event: the dashboard's event log and the CLI's
 * progress lines both print it (each adds its own step prefix), so they say the same thing.
 */
import { originPhrase } from "./best";
import { describeCoverage, describeUnanswered } from "./coverage";
import type { GateReviewOutcome } from "./events";
import type { StoredRunEvent, StoredRunEventOf } from "./stored-events";

const f3 = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : "—");
const shortHash = (h: string) => h.slice(0, 8);

/** " (1 error, 2 truncated not answered)" or "". */
function notAnswered(c: { nErrors: number; nTimeouts: number; nTruncated: number }): string {
  const text = describeUnanswered(c);
  return text ? ` (${text} not answered)` : "";
}

/** "2026-12-02 04:05 UTC" from an ISO time (no locale, so server, browser and terminal print the same text). */
const utc = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 16).replace("T", " ")} UTC` : iso;
const by = (author: string) => (author.trim() ? `by ${author.trim()}` : "by a reviewer");
const quoted = (note: string) => (note.trim() ? ` — “${note.trim()}”` : "");
const REVIEW_VERB: Record<string, string> = { accept: "accepted", reject: "rejected", edit: "edited, then accepted" };

/** The human review behind a gate decision, when there was one. */
function gateReview(r: GateReviewOutcome | undefined): string {
  if (!r) return "";
  const gate = `gate said ${r.automatic}`;
  if (r.source === "timeout")
    return `; review timed out → fallback ${r.decision === "gate" ? "to the gate's decision" : r.decision} (${gate})`;
  return `; ${REVIEW_VERB[r.decision] ?? r.decision} ${by(r.author)} (${gate})${quoted(r.note)}`;
}

function gateDecided(e: StoredRunEventOf<"gateDecided">): string {
  const head = `gate: ${e.action}`;
  const tail = gateReview(e.review);
  if (e.nPaired >= e.nItems)
    return `${head} (candidate ${f3(e.candidateScore)} vs current ${f3(e.currentScoreBefore)}, best ${f3(e.bestScore)})${tail}`;
  // Some items went unanswered: the comparison was over the items both skills answered.
  const basis = `candidate ${f3(e.candidatePairedScore)} vs current ${f3(e.currentPairedScore)}, best ${f3(e.bestScore)}`;
  return `${head} (${basis}; ${describeCoverage(e)}${e.reason ? ` — ${e.reason}` : ""})${tail}`;
}

function reviewRequested(e: StoredRunEventOf<"reviewRequested">): string {
  const wait =
    e.mode === "ask" && e.deadlineAt
      ? `; if no one answers by ${utc(e.deadlineAt)} the fallback decision applies`
      : "; the run waits for a reviewer";
  return `step ${e.step} awaits human review (the gate would ${e.automatic || "decide"})${wait}`;
}

function reviewDecided(e: StoredRunEventOf<"reviewDecided">): string {
  if (e.decision === "expired") return `step ${e.step} review timed out: the fallback decision applies`;
  return `step ${e.step} review: ${REVIEW_VERB[e.decision]} ${by(e.author)}${quoted(e.note)}`;
}

function runStarted(e: StoredRunEventOf<"runStarted">): string {
  const plan = `${e.numEpochs} epochs × ${e.stepsPerEpoch} steps, ${e.trainSize} train / ${e.selectionSize} selection / ${e.testSize} test items`;
  return e.resumedFromStep > 0
    ? `resuming after step ${e.resumedFromStep} of ${e.totalSteps}: ${plan}`
    : `training: ${plan}`;
}

function finalSelectionChecked(e: StoredRunEventOf<"finalSelectionChecked">): string {
  const head = `final selection check (${originPhrase(e.origin)}): ${f3(e.gateScore)}`;
  if (e.skipReason !== null) return `${head}, not compared: ${e.skipReason}`;
  if (e.promoted) return `${head} — new best`;
  return `${head}, best stays ${e.bestScore === null ? "n/a" : f3(e.bestScore)}`;
}

function candidateBuilt(e: StoredRunEventOf<"candidateBuilt">): string {
  const report = e.applyReport;
  const applied = report
    ? `, ${report.filter((r) => r.status === "applied").length}/${report.length} edits applied`
    : "";
  return `candidate ${shortHash(e.candidateHash)}${applied}`;
}

/** Sentences of the engine's training events. */
function describeTraining(e: Exclude<StoredRunEvent, { type: LifecycleType | EndType }>): string {
  switch (e.type) {
    case "runStarted":
      return runStarted(e);
    case "baselineScored":
      return `baseline selection ${f3(e.score)} (hard ${f3(e.hard)}, soft ${f3(e.soft)})${notAnswered(e)}`;
    case "stepStarted":
      return `started: epoch ${e.epoch}, step ${e.stepInEpoch} of the epoch`;
    case "rolloutCompleted":
      return `rollout hard ${f3(e.hard)} soft ${f3(e.soft)} on ${e.n} items${notAnswered(e)}`;
    case "patchesProposed":
      return `analysts: ${e.nFailurePatches} failure + ${e.nSuccessPatches} success patches${e.nInvalid ? `, ${e.nInvalid} unusable answers` : ""}`;
    case "patchesMerged":
      return `merged into ${e.nMerged} edits${e.fallbacks ? ` (${e.fallbacks} merge fallbacks)` : ""}`;
    case "editsSelected":
      return `${e.nEdits} edits selected (budget ${e.budget ?? "none"}${e.ranked ? ", ranked" : ""}${e.fallback ? ", ranking fallback" : ""})`;
    case "candidateBuilt":
      return candidateBuilt(e);
    case "candidateScored":
      return `candidate hard ${f3(e.hard)} soft ${f3(e.soft)}, gate ${f3(e.gateScore)}${e.cached ? " (cached)" : ""}${notAnswered(e)}`;
    case "gateDecided":
      return gateDecided(e);
    case "stepCommitted":
      return `committed (${e.action}): current ${f3(e.currentScore)}, best ${f3(e.bestScore)}`;
    case "slowUpdateApplied":
      return `epoch ${e.epoch}: slow update ${e.action}${e.selectionHard !== null ? `, selection ${f3(e.selectionHard)}` : ""}`;
    case "finalSelectionChecked":
      return finalSelectionChecked(e);
    case "metaSkillUpdated":
      return `epoch ${e.epoch}: meta skill ${e.action}`;
    case "epochCompleted":
      return `epoch ${e.epoch} done: current ${f3(e.currentScore)}, best ${f3(e.bestScore)}`;
    case "noiseFloorMeasured":
      return `epoch ${e.epoch} noise floor: ${e.scores.length} repeats, mean ${f3(e.mean)} ± ${f3(e.sd)} (${f3(e.low)}–${f3(e.high)}) on ${e.nItems} items`;
    case "testScored":
      return `test (${e.which} skill): hard ${f3(e.hard)} soft ${f3(e.soft)}${notAnswered(e)}`;
    case "evalCompleted":
      return `eval on ${e.split}: hard ${f3(e.hard)} soft ${f3(e.soft)} on ${e.nItems} items${notAnswered(e)}`;
    default:
      return assertNever(e);
  }
}

type EndType = "runCompleted" | "runFailed" | "runCancelled" | "runPaused";
type LifecycleType =
  | "runQueued"
  | "runClaimed"
  | "workerLost"
  | "runInterrupted"
  | "runResumed"
  | "cancelRequested"
  | "runResumeRequested"
  | "reviewRequested"
  | "reviewDecided";

/** Sentences of how a run ends, and of its life outside the engine (queue, workers, reviewers). */
function describeLife(e: Extract<StoredRunEvent, { type: LifecycleType | EndType }>): string {
  switch (e.type) {
    case "runCompleted":
      return e.stopReason && e.stopReason !== "completed" ? `completed early: ${e.stopReason}` : "completed";
    case "runFailed":
      return `failed${e.step !== null ? ` at step ${e.step}` : ""}: ${e.message}`;
    case "runCancelled":
      return `cancelled at step ${e.step}`;
    case "runPaused":
      return `paused at step ${e.step}: ${e.reason}`;
    case "runQueued":
      return e.reason ? `queued: ${e.reason}` : "queued";
    case "runClaimed":
      return e.workerId ? `claimed by ${e.workerId}` : "claimed by a worker";
    case "workerLost":
      return `worker ${e.workerId || "(unknown)"} lost${e.detectedBy ? ` (${e.detectedBy})` : ""}`;
    case "runInterrupted":
      return e.reason ? `interrupted: ${e.reason}` : "interrupted";
    case "runResumed": {
      const n = e.superseded.length;
      return `resumed from step ${e.fromStep}` + (n > 0 ? `; ${n} events of the interrupted attempt replaced` : "");
    }
    case "cancelRequested":
      return "cancel requested";
    case "runResumeRequested":
      return "resume requested";
    case "reviewRequested":
      return reviewRequested(e);
    case "reviewDecided":
      return reviewDecided(e);
    default:
      return assertNever(e);
  }
}

/** Keyed by every lifecycle and end type, so a type added to one list and not here fails to compile. */
const LIFE: Record<LifecycleType | EndType, true> = {
  runCompleted: true,
  runFailed: true,
  runCancelled: true,
  runPaused: true,
  runQueued: true,
  runClaimed: true,
  workerLost: true,
  runInterrupted: true,
  runResumed: true,
  cancelRequested: true,
  runResumeRequested: true,
  reviewRequested: true,
  reviewDecided: true,
};

const isLife = (e: StoredRunEvent): e is Extract<StoredRunEvent, { type: LifecycleType | EndType }> =>
  Object.hasOwn(LIFE, e.type);

/** The one-line description of a stored event, as the event log and the CLI print it. */
export function describeStoredEvent(e: StoredRunEvent): string {
  return isLife(e) ? describeLife(e) : describeTraining(e);
}

/** The global step an event is about, when it names one. */
export function eventStep(e: StoredRunEvent): number | null {
  return "step" in e ? e.step : null;
}

function assertNever(e: never): never {
  throw new Error(`no sentence for stored event ${JSON.stringify(e)}`);
}

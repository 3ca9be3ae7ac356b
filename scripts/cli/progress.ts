/**
 * Progress on stderr: live bars (overall steps and the current phase's items) on a terminal, one plain
 * line per phase otherwise (CI logs, pipes).
 */
import cliProgress from "cli-progress";
import { originPhrase } from "../../lib/contracts/best";
import { describeCoverage, describeUnanswered } from "../../lib/contracts/coverage";
import type { EngineEvent } from "../../lib/contracts/events";
import type { RolloutPhase } from "../../lib/engine";

const PHASE_LABEL: Record<RolloutPhase, string> = {
  train: "train rollout",
  selection: "selection eval",
  test: "test eval",
  longitudinal: "epoch comparison",
};

const f3 = (x: number) => x.toFixed(3);

/** " (1 error, 2 truncated not answered)" or "". */
function notAnswered(c: { nErrors: number; nTimeouts: number; nTruncated: number }): string {
  const text = describeUnanswered(c);
  return text ? ` (${text} not answered)` : "";
}

/** One-line description of an event for logs, or null for events not worth a line. */
export function describeEvent(e: EngineEvent, totalSteps: number): string | null {
  const s = (step: number) => `[step ${step}/${totalSteps}]`;
  switch (e.type) {
    case "runStarted":
      return e.resumedFromStep > 0
        ? `resuming after step ${e.resumedFromStep} of ${e.totalSteps}`
        : `training: ${e.numEpochs} epochs × ${e.stepsPerEpoch} steps, ${e.trainSize} train / ${e.selectionSize} selection / ${e.testSize} test items`;
    case "baselineScored":
      return `baseline selection score ${f3(e.score)} (hard ${f3(e.hard)}, soft ${f3(e.soft)})`;
    case "rolloutCompleted":
      return `${s(e.step)} rollout hard ${f3(e.hard)} soft ${f3(e.soft)} on ${e.n} items${notAnswered(e)}`;
    case "patchesProposed":
      return `${s(e.step)} analysts: ${e.nFailurePatches} failure + ${e.nSuccessPatches} success patches${e.nInvalid ? `, ${e.nInvalid} unusable answers` : ""}`;
    case "patchesMerged":
      return `${s(e.step)} merged into ${e.nMerged} updates${e.fallbacks ? ` (${e.fallbacks} merge fallbacks)` : ""}`;
    case "editsSelected":
      return `${s(e.step)} selected ${e.edits.length} (budget ${e.budget ?? "none"}${e.ranked ? ", ranked" : ""}${e.fallback ? ", ranking fallback" : ""})`;
    case "gateDecided": {
      if (e.nPaired >= e.nItems)
        return `${s(e.step)} gate: ${e.action} (candidate ${f3(e.candidateScore)} vs current ${f3(e.currentScoreBefore)}, best ${f3(e.bestScore)})`;
      // Some items went unanswered: the comparison was over the items both skills answered.
      const basis = `candidate ${f3(e.candidatePairedScore)} vs current ${f3(e.currentPairedScore)}, ${describeCoverage(e)}`;
      return `${s(e.step)} gate: ${e.action} (${basis}${e.reason ? `; ${e.reason}` : ""})`;
    }
    case "stepCommitted":
      return e.action.startsWith("skip") ? `${s(e.step)} ${e.action}` : null;
    case "slowUpdateApplied":
      return `epoch ${e.epoch}: slow update ${e.action}${e.selectionHard !== null ? `, selection ${f3(e.selectionHard)}` : ""}`;
    case "finalSelectionChecked":
      return e.skipReason !== null
        ? `final selection check (${originPhrase(e.origin)}): ${f3(e.gateScore)}, not compared: ${e.skipReason}`
        : `final selection check (${originPhrase(e.origin)}): ${f3(e.gateScore)}${e.promoted ? " — new best" : `, best stays ${e.bestScore === null ? "n/a" : f3(e.bestScore)}`}`;
    case "metaSkillUpdated":
      return `epoch ${e.epoch}: meta skill ${e.action}`;
    case "testScored":
      return `test (${e.which} skill): hard ${f3(e.hard)} soft ${f3(e.soft)}${notAnswered(e)}`;
    case "runFailed":
      return `run failed: ${e.message}`;
    default:
      return null;
  }
}

export interface Progress {
  onEvent(e: EngineEvent): void;
  onItem(phase: RolloutPhase): void;
  stop(): void;
}

export function createProgress(opts: {
  stream?: NodeJS.WriteStream;
  phaseTotals: Record<RolloutPhase, number>;
}): Progress {
  const stream = opts.stream ?? process.stderr;
  let totalSteps = 0;
  if (!stream.isTTY) {
    return {
      onEvent(e) {
        if (e.type === "runStarted") totalSteps = e.totalSteps;
        const line = describeEvent(e, totalSteps);
        if (line) stream.write(`${line}\n`);
      },
      onItem() {},
      stop() {},
    };
  }
  const multi = new cliProgress.MultiBar(
    { stream, clearOnComplete: false, hideCursor: true, format: "{label} |{bar}| {value}/{total} {info}", barsize: 30 },
    cliProgress.Presets.shades_classic,
  );
  const steps = multi.create(1, 0, { label: "steps    ", info: "" });
  const phase = multi.create(1, 0, { label: "items    ", info: "" });
  let current: RolloutPhase | null = null;
  let best = "";
  return {
    onEvent(e) {
      if (e.type === "runStarted") {
        totalSteps = e.totalSteps;
        steps.setTotal(e.totalSteps);
        steps.update(e.resumedFromStep);
      }
      if (e.type === "baselineScored") best = f3(e.score);
      if (e.type === "stepStarted") steps.update({ info: `epoch ${e.epoch} · best ${best}` });
      if (e.type === "stepCommitted") {
        best = f3(e.bestScore);
        steps.update(e.step, { info: `epoch ${e.epoch} · best ${best} · last ${e.action}` });
      }
      // A gated slow update or the final selection check can make a new best after the last step.
      if (
        (e.type === "slowUpdateApplied" || e.type === "finalSelectionChecked") &&
        e.bestScore !== undefined &&
        e.bestScore !== null
      ) {
        best = f3(e.bestScore);
        steps.update({ info: `best ${best}` });
      }
      const line = describeEvent(e, totalSteps);
      if (
        line &&
        (e.type === "gateDecided" ||
          e.type === "slowUpdateApplied" ||
          e.type === "finalSelectionChecked" ||
          e.type === "testScored" ||
          e.type === "runFailed")
      )
        multi.log(`${line}\n`);
    },
    onItem(p) {
      if (p !== current) {
        current = p;
        phase.setTotal(opts.phaseTotals[p]);
        phase.update(0, { label: PHASE_LABEL[p].padEnd(9).slice(0, 9) });
      }
      const v = (phase.getProgress() * phase.getTotal()) | 0;
      if (v >= phase.getTotal()) phase.update(0);
      phase.increment(1, { info: PHASE_LABEL[p] });
    },
    stop() {
      multi.stop();
    },
  };
}

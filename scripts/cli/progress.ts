/**
 * Progress on stderr: live bars (overall steps and the current phase's items) on a terminal, one plain
 * line per event otherwise (CI logs, pipes), worded as the dashboard's event log words it.
 */
import cliProgress from "cli-progress";
import { describeStoredEvent, eventStep } from "../../lib/contracts/event-summary";
import type { EngineEvent } from "../../lib/contracts/events";
import { leanPayload } from "../../lib/contracts/stored-events";
import type { RolloutPhase } from "../../lib/engine";

const PHASE_LABEL: Record<RolloutPhase, string> = {
  train: "train rollout",
  selection: "selection eval",
  test: "test eval",
  longitudinal: "epoch comparison",
};

const f3 = (x: number) => x.toFixed(3);

/**
 * The line for an event, for logs: the sentence the dashboard's event log shows for the stored event
 * (lib/contracts/event-summary.ts), after "[step n/N]" when the event names a step.
 */
export function describeEvent(e: EngineEvent, totalSteps: number): string {
  const stored = leanPayload(e);
  const step = eventStep(stored);
  const text = describeStoredEvent(stored);
  return step === null ? text : `[step ${step}/${totalSteps}] ${text}`;
}

/** Events logged above the live bars on a terminal (the bars show the rest). */
const LOGGED_ABOVE_BARS: ReadonlySet<EngineEvent["type"]> = new Set([
  "gateDecided",
  "slowUpdateApplied",
  "finalSelectionChecked",
  "testScored",
  "runFailed",
  "runPaused",
]);

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
        stream.write(`${describeEvent(e, totalSteps)}\n`);
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
      if (LOGGED_ABOVE_BARS.has(e.type)) multi.log(`${describeEvent(e, totalSteps)}\n`);
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

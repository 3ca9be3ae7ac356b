/**
 * Pure helpers over SSE frames (parsed with the stored event schemas): merging replays into the cached list
 * (dedupe by seq, bounded size), the step a frame belongs to, and a one-line summary for the event log.
 */
import { describeStoredEvent, eventStep } from "@/lib/contracts/event-summary";
import type { EventFrame } from "@/lib/contracts/stored-events-stream";

/** The event log keeps the most recent frames only; the run's tables hold the full history. */
export const MAX_FRAMES = 2_000;

/** Seqs a `runResumed` frame says were replaced by the resumed attempt's own events. */
function supersededBy(frames: readonly EventFrame[]): Set<number> {
  const out = new Set<number>();
  for (const f of frames) if (f.event?.type === "runResumed") for (const s of f.event.superseded) out.add(s);
  return out;
}

/**
 * Appends frames newer than the last cached one (replays after reconnects are dropped), keeping the tail.
 * A resumed run's `runResumed` frame removes the earlier attempt's uncommitted events it superseded, so a
 * page that was open during the crash shows every step once, as a fresh load does.
 */
export function mergeFrames(
  old: readonly EventFrame[] | undefined,
  incoming: readonly EventFrame[],
  cap = MAX_FRAMES,
): EventFrame[] {
  const base = old ?? [];
  let last = base.length > 0 ? base[base.length - 1]!.seq : 0;
  const fresh: EventFrame[] = [];
  for (const f of [...incoming].sort((a, b) => a.seq - b.seq)) {
    if (f.seq > last) {
      fresh.push(f);
      last = f.seq;
    }
  }
  if (fresh.length === 0) return base as EventFrame[];
  const gone = supersededBy(fresh);
  const kept = gone.size > 0 ? base.filter((f) => !gone.has(f.seq)) : base;
  const merged = kept.concat(fresh);
  return merged.length > cap ? merged.slice(merged.length - cap) : merged;
}

/** The global step a frame is about, when its event names one. */
export function frameStep(frame: EventFrame): number | null {
  return frame.event ? eventStep(frame.event) : null;
}

/** One line describing the frame (the CLI prints the same sentence); a frame that did not parse says why. */
export function summarizeFrame(frame: EventFrame): string {
  return frame.event ? describeStoredEvent(frame.event) : frame.problem;
}

/** Frames drawn in warning/error colours in the log: a frame that did not parse reads as an error. */
export function frameTone(frame: EventFrame): "error" | "warn" | "good" | "plain" {
  const type = frame.type;
  if (type === "runFailed" || frame.problem !== null) return "error";
  if (
    type === "runInterrupted" ||
    type === "runPaused" ||
    type === "runCancelled" ||
    type === "cancelRequested" ||
    type === "workerLost" ||
    type === "reviewRequested"
  )
    return "warn";
  if (type === "runCompleted" || type === "baselineScored" || type === "testScored") return "good";
  return "plain";
}

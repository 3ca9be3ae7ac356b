/**
 * Lifecycle run events: stored as RunEvent rows next to the engine's (lean) events, and streamed with them
 * (./stored-events-stream.ts). Engine events are stored lean (per-item results, skill texts and edit lists
 * live in their own tables and are fetched by the page); lifecycle events come from the worker and the API.
 */
import { z } from "zod";

/**
 * Events about a run's life outside the engine: who runs it, why it stopped or went back to the queue.
 * Past tense, discriminated by `type`, stored as RunEvent rows next to the engine's events.
 */
export const LifecycleEventSchema = z.discriminatedUnion("type", [
  /** Back in the queue: a graceful worker shutdown, or an automatic restart after a lost worker. */
  z.object({
    type: z.literal("runQueued"),
    reason: z.string(),
    autoRestart: z.object({ count: z.number().int(), limit: z.number().int() }).optional(),
  }),
  z.object({ type: z.literal("runClaimed"), workerId: z.string(), resumed: z.boolean() }),
  /** The worker that owned the run stopped without finishing it (killed, crashed, out of contact). */
  z.object({
    type: z.literal("workerLost"),
    workerId: z.string().nullable(),
    lastHeartbeatAt: z.string().nullable(),
    detectedBy: z.string(),
  }),
  /** The run stopped and waits for Resume (e.g. after too many automatic restarts). */
  z.object({ type: z.literal("runInterrupted"), reason: z.string() }),
  /**
   * A worker picked the run up again after an earlier attempt. The earlier attempt's events of the steps
   * it had not committed (`superseded`, by seq) are replaced by this attempt's and hidden from the log.
   */
  z.object({ type: z.literal("runResumed"), fromStep: z.number().int(), superseded: z.array(z.number().int()) }),
  z.object({ type: z.literal("cancelRequested"), status: z.string() }),
  z.object({ type: z.literal("runResumeRequested") }),
  /** Human review at the gate: the run stopped at a step's gate until a reviewer (or an `ask` timeout) decides. */
  z.object({
    type: z.literal("reviewRequested"),
    step: z.number().int(),
    mode: z.enum(["ask", "required"]),
    automatic: z.string(),
    deadlineAt: z.string().nullable(),
  }),
  z.object({
    type: z.literal("reviewDecided"),
    step: z.number().int(),
    decision: z.enum(["accept", "reject", "edit", "expired"]),
    note: z.string(),
    author: z.string(),
  }),
]);
export type LifecycleEvent = z.infer<typeof LifecycleEventSchema>;

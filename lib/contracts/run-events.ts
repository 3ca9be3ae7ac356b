/**
 * What the SSE stream carries: stored RunEvent rows. Engine events are stored lean (per-item results,
 * skill texts and edit lists live in their own tables and are fetched by the page); lifecycle events
 * come from the worker and the API. The browser parses every frame with `StreamFrameSchema`.
 */
import { z } from "zod";

export const LIFECYCLE_EVENT_TYPES = ["runQueued", "runClaimed", "runInterrupted", "cancelRequested", "runResumeRequested"] as const;

export const StreamFrameSchema = z.object({
  seq: z.number().int().min(1),
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type StreamFrame = z.infer<typeof StreamFrameSchema>;

/** Event types after which a run is over; the stream closes once one has been sent. */
export const TERMINAL_EVENT_TYPES: readonly string[] = ["runCompleted", "runFailed", "runCancelled", "runInterrupted"];

/**
 * Queue and job names and payload schemas: the one place the web app and the worker agree on. A payload
 * carries the run id only; the run row is the source of truth.
 */
import { z } from "zod";

export const QUEUES = { optimizeRun: "optimize-run" } as const;
export const JOBS = { start: "optimize-run.start" } as const;

export const OptimizeRunPayloadSchema = z.object({
  runId: z.string().uuid(),
});
export type OptimizeRunPayload = z.infer<typeof OptimizeRunPayloadSchema>;

/** Redis pub/sub channel the worker publishes on after each committed event (the message is only a wake-up). */
export const runChannel = (runId: string): string => `skillopt:run:${runId}`;

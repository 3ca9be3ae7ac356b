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

/** Redis pub/sub channel the worker publishes on after each committed event (the message is only a wake-up). */
export const runChannel = (runId: string): string => `skillopt:run:${runId}`;

/** SkillOpt-Sleep nights: one queue; a dashboard request and a project's job scheduler add to it. */
export const SLEEP_QUEUE = "sleep-night" as const;
export const SLEEP_JOBS = {
  /** A night row the dashboard created (Run now / Dry run). */
  run: "sleep-night.run",
  /** Fired by a project's job scheduler; the worker creates the night row. */
  scheduled: "sleep-night.scheduled",
} as const;

export const SleepNightPayloadSchema = z.object({ nightId: z.string().uuid() });
export const SleepScheduledPayloadSchema = z.object({ projectId: z.string().uuid() });

/** Transfer matrix cells (lib/contracts/transfer.ts): one job per cell, a test-split evaluation on the worker. */
export const TRANSFER_QUEUE = "transfer-eval" as const;
export const TRANSFER_JOBS = { cell: "transfer-eval.cell" } as const;
export const TransferCellPayloadSchema = z.object({ cellId: z.string().uuid() });

/**
 * Fan-out of a run's rollouts (`worker.fan_out`): one job per chunk of a batch's items. The batch itself
 * (items, skill, phase, seed) is a checkpoint row of the run under `<dir>/fanout/<spec>.json`.
 */
export const FANOUT_QUEUE = "rollout-chunk" as const;
export const FANOUT_JOBS = { chunk: "rollout-chunk.run" } as const;
export const RolloutChunkPayloadSchema = z.object({
  runId: z.string().uuid(),
  /** The rollout's store folder, e.g. `steps/step_0001/rollout`. */
  dir: z.string().min(1),
  /** Hash of the batch's item ids: the spec row is `<dir>/fanout/<spec>.json`. */
  spec: z.string().regex(/^[0-9a-f]{16}$/),
  chunk: z.number().int().min(0),
});
export type RolloutChunkPayload = z.infer<typeof RolloutChunkPayloadSchema>;

/** Starts a chunk job's failure reason when the run's shared budget refused a call: the owner pauses the run. */
export const BUDGET_PAUSE_MARK = "[budget pause] ";

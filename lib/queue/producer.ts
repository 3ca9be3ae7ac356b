/**
 * Enqueueing runs. Job defaults live here: one attempt (a lost worker is recovered by the run's own restart
 * logic, which resumes from the checkpoint), finished jobs trimmed. The job id is `<runId>-j<gen>`, where
 * `gen` is the run's `jobGen` column: every requeue bumps it with a conditional update first, so two
 * processes requeueing the same run at once add the same job id and BullMQ keeps one.
 *
 * The producer never hangs on Redis: its connection does not queue commands while Redis is away, and every
 * add is time-boxed. A run whose add failed stays `queued` in the database; the workers' reconcile loop
 * queues it when Redis is back.
 */
import { Queue } from "bullmq";
import { JOBS, OptimizeRunPayloadSchema, QUEUES } from "./contracts";
import { redisOptions } from "./connection";

/** How long an add may take before the caller answers without it (the reconcile loop catches up). */
export const ENQUEUE_TIMEOUT_MS = 3_000;

const g = globalThis as unknown as { __skilloptQueue?: Queue };

export function getRunQueue(): Queue {
  if (!g.__skilloptQueue) {
    // Fail fast while Redis is down instead of holding commands until it returns.
    const queue = new Queue(QUEUES.optimizeRun, {
      connection: { ...redisOptions(), maxRetriesPerRequest: 1, enableOfflineQueue: false },
    });
    queue.on("error", () => {}); // callers see the failed command; ioredis reconnects by itself
    g.__skilloptQueue = queue;
  }
  return g.__skilloptQueue;
}

/** The job id of a run's `gen`-th job. */
export const runJobId = (runId: string, gen: number): string => `${runId}-j${gen}`;

/** The generation in a job id made by `runJobId`; null for ids of other shapes (older versions). */
export function jobGenOf(jobId: string | undefined): number | null {
  const m = /-j(\d+)$/.exec(jobId ?? "");
  return m ? Number(m[1]) : null;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Adds the run's `gen`-th job; throws when Redis is unreachable or slower than `timeoutMs`. */
export async function enqueueRun(
  runId: string,
  opts: { gen: number; queue?: Queue; timeoutMs?: number },
): Promise<void> {
  const payload = OptimizeRunPayloadSchema.parse({ runId });
  const queue = opts.queue ?? getRunQueue();
  await withTimeout(
    queue.add(JOBS.start, payload, {
      jobId: runJobId(runId, opts.gen),
      attempts: 1,
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    }),
    opts.timeoutMs ?? ENQUEUE_TIMEOUT_MS,
  );
}

/** Like `enqueueRun`, but reports failure as `false` (the run stays queued for the reconcile loop). */
export async function tryEnqueueRun(
  runId: string,
  opts: { gen: number; queue?: Queue; timeoutMs?: number; onError?: (e: unknown) => void },
): Promise<boolean> {
  try {
    await enqueueRun(runId, opts);
    return true;
  } catch (e) {
    opts.onError?.(e);
    return false;
  }
}

/** States in which a job will still run (or is running). */
export const LIVE_JOB_STATES = ["waiting", "active", "delayed", "prioritized", "waiting-children"] as const;

/**
 * Ids of the runs that have a job which will still run. A job BullMQ marked for failure (it stalled: its
 * worker died) does not count: it fails as soon as a worker takes it, without running.
 */
export async function listRunsWithLiveJobs(
  queue: Queue = getRunQueue(),
  timeoutMs = ENQUEUE_TIMEOUT_MS,
): Promise<Set<string>> {
  const jobs = await withTimeout(queue.getJobs([...LIVE_JOB_STATES]), timeoutMs);
  const ids = new Set<string>();
  for (const j of jobs) {
    const parsed = OptimizeRunPayloadSchema.safeParse(j?.data);
    if (parsed.success && !j.deferredFailure) ids.add(parsed.data.runId);
  }
  return ids;
}

export async function closeQueue(): Promise<void> {
  const queue = g.__skilloptQueue;
  g.__skilloptQueue = undefined;
  // With Redis unreachable there is nothing to flush; closing must not fail a shutdown.
  await queue
    ?.close()
    .catch((e: unknown) => console.warn(`queue close: ${e instanceof Error ? e.message : String(e)}`));
}

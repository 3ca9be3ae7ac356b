/**
 * The Sleep queue: enqueueing one night, and one BullMQ job scheduler per project whose cron pattern is
 * enabled (`upsertJobScheduler`, id `sleep-project-<projectId>`). The database is the truth for
 * schedules; `reconcileSleepSchedules` makes Redis match it (the worker runs it at start, so a schedule
 * saved while Redis was away is never lost). Adds are time-boxed like the run producer's.
 */
import { Queue } from "bullmq";
import { SLEEP_JOBS, SLEEP_QUEUE, SleepNightPayloadSchema, SleepScheduledPayloadSchema } from "./contracts";
import { redisOptions } from "./connection";
import { ENQUEUE_TIMEOUT_MS } from "./producer";

const g = globalThis as unknown as { __skilloptSleepQueue?: Queue };

export function getSleepQueue(): Queue {
  if (!g.__skilloptSleepQueue) {
    const queue = new Queue(SLEEP_QUEUE, {
      connection: { ...redisOptions(), maxRetriesPerRequest: 1, enableOfflineQueue: false },
    });
    queue.on("error", () => {}); // callers see the failed command; ioredis reconnects by itself
    g.__skilloptSleepQueue = queue;
  }
  return g.__skilloptSleepQueue;
}

export async function closeSleepQueue(): Promise<void> {
  const queue = g.__skilloptSleepQueue;
  g.__skilloptSleepQueue = undefined;
  await queue
    ?.close()
    .catch((e: unknown) => console.warn(`sleep queue close: ${e instanceof Error ? e.message : String(e)}`));
}

function timeBoxed<T>(p: Promise<T>, ms = ENQUEUE_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

const JOB_DEFAULTS = { attempts: 1, removeOnComplete: { count: 500 }, removeOnFail: { count: 500 } };

/** Adds the job of a queued night (job id = night id, so a repeated add is one job). */
export async function enqueueSleepNight(nightId: string, queue: Queue = getSleepQueue()): Promise<void> {
  const payload = SleepNightPayloadSchema.parse({ nightId });
  await timeBoxed(queue.add(SLEEP_JOBS.run, payload, { ...JOB_DEFAULTS, jobId: `sleep-${nightId}` }));
}

export const sleepSchedulerId = (projectId: string): string => `sleep-project-${projectId}`;

export interface ScheduledProject {
  id: string;
  cronPattern: string;
  enabled: boolean;
}

/** Creates, changes or removes the project's job scheduler so it matches the project row. */
export async function syncSleepSchedule(
  p: ScheduledProject,
  queue: Queue = getSleepQueue(),
): Promise<"scheduled" | "unscheduled"> {
  if (p.enabled && p.cronPattern.trim()) {
    const data = SleepScheduledPayloadSchema.parse({ projectId: p.id });
    await timeBoxed(
      queue.upsertJobScheduler(
        sleepSchedulerId(p.id),
        { pattern: p.cronPattern.trim() },
        { name: SLEEP_JOBS.scheduled, data, opts: JOB_DEFAULTS },
      ),
    );
    return "scheduled";
  }
  await timeBoxed(queue.removeJobScheduler(sleepSchedulerId(p.id)));
  return "unscheduled";
}

/** Makes Redis hold exactly the schedulers of `projects` (the enabled ones with a pattern). */
export async function reconcileSleepSchedules(
  projects: ReadonlyArray<{ id: string; cronPattern: string }>,
  queue: Queue = getSleepQueue(),
): Promise<{ upserted: number; removed: number }> {
  const wanted = new Set(projects.map((p) => sleepSchedulerId(p.id)));
  for (const p of projects) await syncSleepSchedule({ ...p, enabled: true }, queue);
  let removed = 0;
  for (const s of await timeBoxed(queue.getJobSchedulers(0, -1))) {
    const key = s.key ?? s.id;
    if (key && key.startsWith("sleep-project-") && !wanted.has(key)) {
      await timeBoxed(queue.removeJobScheduler(key));
      removed += 1;
    }
  }
  return { upserted: projects.length, removed };
}

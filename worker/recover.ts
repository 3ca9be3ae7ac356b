/**
 * On worker start: make sure every run that should be trained has a job. Jobs can be lost when Redis
 * restarts without persistence; runs whose worker died keep an active job that the queue's stalled-job
 * check hands back, so only runs with no job at all are queued again.
 */
import type { Queue } from "bullmq";
import { getDb } from "../lib/db/client";
import { enqueueRun } from "../lib/queue/producer";
import type { Logger } from "./logger";

export async function recoverRuns(queue: Queue, opts: { staleAfterMs: number; log: Logger }): Promise<number> {
  const jobs = await queue.getJobs(["waiting", "active", "delayed", "prioritized", "waiting-children"]);
  const hasJob = new Set(jobs.map((j) => (j?.data as { runId?: string } | undefined)?.runId).filter(Boolean));
  const stale = new Date(Date.now() - opts.staleAfterMs);
  const runs = await getDb().run.findMany({
    where: {
      OR: [{ status: "queued" }, { status: { in: ["running", "cancelling"] }, OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: stale } }] }],
    },
    select: { id: true, status: true },
  });
  let n = 0;
  for (const run of runs) {
    if (hasJob.has(run.id)) continue;
    await enqueueRun(run.id, { attempt: Date.now() + n, queue });
    opts.log.info(`run ${run.id} (${run.status}) had no job: queued again`);
    n += 1;
  }
  return n;
}

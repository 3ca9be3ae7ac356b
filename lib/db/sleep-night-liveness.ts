/**
 * Running nights whose process died become interrupted (lib/sleep/liveness.ts decides which). Called when
 * the dashboard reads nights or projects, when a project is deleted, when the CLI starts a night and when
 * the worker reconciles. Each change is conditional on the row being unchanged since it was read, so a
 * heartbeat that lands in between keeps the night running.
 */
import { hostname } from "node:os";
import { redactText } from "../contracts/redact";
import { deadNightReason, ownerOf, pidAlive, type LivenessProbe } from "../sleep/liveness";
import { getDb, type DbTx } from "./client";

export interface DeadNightOptions extends Partial<LivenessProbe> {
  staleAfterMs: number;
  /** Who noticed, for the reason line: "the dashboard", "sleep run", "the worker". */
  detectedBy: string;
  db?: DbTx;
}

/** Marks every dead running night interrupted with its reason; returns how many changed. */
export async function markDeadNightsInterrupted(opts: DeadNightOptions): Promise<number> {
  const db = opts.db ?? getDb();
  const probe: LivenessProbe = {
    now: opts.now ?? Date.now(),
    staleAfterMs: opts.staleAfterMs,
    host: opts.host ?? hostname(),
    pidAlive: opts.pidAlive ?? pidAlive,
  };
  const running = await db.sleepNight.findMany({
    where: { status: "running" },
    select: { id: true, reportJson: true, updatedAt: true },
  });
  let n = 0;
  for (const row of running) {
    const reason = deadNightReason({ owner: ownerOf(row.reportJson), updatedAt: row.updatedAt.getTime() }, probe);
    if (!reason) continue;
    const message = `interrupted: ${reason} (noticed by ${opts.detectedBy}). Run the night again to start it over.`;
    const r = await db.sleepNight.updateMany({
      where: { id: row.id, status: "running", updatedAt: row.updatedAt },
      data: {
        status: "interrupted",
        error: redactText(message).slice(0, 2000),
        endedAt: new Date(probe.now),
        reportJson: "{}",
      },
    });
    n += r.count;
  }
  return n;
}

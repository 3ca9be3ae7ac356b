/**
 * When a running night's process is dead. The process that runs a night (the CLI or a worker) records
 * itself as the night's owner — pid and host — and refreshes a heartbeat while the night runs. A night
 * is dead when its owner ran on this host and that pid is gone (found at once: a SIGKILL or a reboot),
 * or when its heartbeat is older than the stale limit (an owner on another host, or a row written before
 * owners were recorded, whose last update stands in for the heartbeat). Dead nights become interrupted;
 * the same `sleep run` then starts that night again (its state was not saved, so it keeps its number).
 */
import { z } from "zod";

export const NightOwnerSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string().min(1),
  /** The last heartbeat, ms since the epoch. */
  heartbeatAt: z.number(),
});
export type NightOwner = z.infer<typeof NightOwnerSchema>;

/** The owner a running night's reportJson carries (`{ owner: … }`), or null when it has none. */
export function ownerOf(reportJson: string): NightOwner | null {
  try {
    const parsed = NightOwnerSchema.safeParse((JSON.parse(reportJson) as { owner?: unknown } | null)?.owner);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface LivenessProbe {
  now: number;
  staleAfterMs: number;
  /** This process's host name. */
  host: string;
  /** Whether a pid runs on this host. */
  pidAlive: (pid: number) => boolean;
}

/** Why a running night counts as dead, or null while it may still be running. */
export function deadNightReason(
  night: { owner: NightOwner | null; updatedAt: number },
  probe: LivenessProbe,
): string | null {
  const { owner } = night;
  if (owner && owner.host === probe.host && !probe.pidAlive(owner.pid))
    return `its process (pid ${owner.pid} on ${owner.host}) is gone: it was killed or the machine restarted`;
  const last = owner?.heartbeatAt ?? night.updatedAt;
  if (probe.now - last > probe.staleAfterMs) {
    const who = owner ? `its process (pid ${owner.pid} on ${owner.host})` : "its process";
    return `${who} sent no heartbeat for over ${Math.round(probe.staleAfterMs / 1000)} s`;
  }
  return null;
}

/** `kill -0`: true when the pid exists (EPERM: it exists but belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How often an owner refreshes its heartbeat: a third of the stale limit, between 0.5 s and 5 s. */
export const heartbeatEveryMs = (staleAfterMs: number): number =>
  Math.max(500, Math.min(5_000, Math.floor(staleAfterMs / 3)));

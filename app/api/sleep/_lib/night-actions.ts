/**
 * Adopt and discard from the dashboard. Adopt goes through lib/sleep's adopt (atomic write, backup, and
 * a refusal when a live file changed since the night started), then marks the row; discard marks the row
 * and removes the night's staging folder (checked first: only a night folder inside the project's
 * staging root, never through a symbolic link). The live files are never touched by either path of discard.
 */
import { SLEEP_DISCARDABLE_STATUSES } from "@/lib/contracts/sleep";
import { AppError } from "@/lib/errors";
import { getNight, markNightStatus } from "@/lib/db/sleep-nights";
import { adoptNight } from "@/lib/sleep/adopt-night";
import { readNightProposals } from "@/lib/sleep/night-files";
import { checkDiscardable, removeStagedNight } from "@/lib/sleep/staging/discard";

export async function adoptStagedNight(id: string): Promise<string[]> {
  const n = await getNight(id);
  if (n.status !== "staged")
    throw new AppError("CONFLICT", `night ${id} is ${n.status}`, {
      userMessage: `Only a staged night can be adopted; this one is ${n.status.replace("_", " ")}.`,
    });
  const pending = readNightProposals(n.stagingDir).proposals.filter((p) => !p.adopted);
  if (pending.length === 0)
    throw new AppError("CONFLICT", `night ${id} has nothing to adopt`, {
      userMessage: "This night staged no proposal to adopt (the gate kept the live files).",
    });
  const updated: string[] = [];
  const steps = [
    ...(pending.some((p) => p.kind === "managed") ? [{ legacy: true }] : []),
    ...(pending.some((p) => p.kind === "skill") ? [{ allSkills: true }] : []),
  ];
  for (const step of steps) {
    const r = adoptNight({ project: n.projectDir, staging: n.stagingDir, ...step });
    if (!r.ok) throw new AppError(r.code === 2 ? "CONFLICT" : "INVALID_REQUEST", r.message, { userMessage: r.message });
    updated.push(...r.updatedPaths);
  }
  await markNightStatus(id, ["staged"], "adopted");
  return updated;
}

/**
 * Discards a staged night, a dry run or no-tasks night, a handoff night waiting for answers, or an interrupted
 * one. Returns the removed staging folder ("" when the night had none or it was gone already).
 */
export async function discardNight(id: string): Promise<string> {
  const n = await getNight(id);
  // Refuse an unsafe folder before the row changes, so a refused discard leaves the night as it was.
  if (n.stagingDir) checkDiscardable(n.projectDir, n.stagingDir);
  await markNightStatus(id, SLEEP_DISCARDABLE_STATUSES, "discarded");
  if (!n.stagingDir) return "";
  return removeStagedNight(n.projectDir, n.stagingDir).removed ? n.stagingDir : "";
}

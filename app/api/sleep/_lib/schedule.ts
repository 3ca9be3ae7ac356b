/** Keeps a project's job scheduler in step with its row; Redis being away is not an error (the worker reconciles at start). */
import type { SleepProjectRow } from "@/lib/db/sleep-projects";
import { syncSleepSchedule } from "@/lib/queue/sleep";

export async function trySyncSchedule(p: Pick<SleepProjectRow, "id" | "cronPattern" | "enabled">): Promise<boolean> {
  try {
    await syncSleepSchedule(p);
    return true;
  } catch (e) {
    console.warn(`[api] Sleep project ${p.id} saved; its schedule reaches Redis when a worker starts: ${String(e)}`);
    return false;
  }
}

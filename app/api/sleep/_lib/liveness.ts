/**
 * Before the dashboard shows nights (or refuses a project delete for a running one), running nights whose
 * process died are marked interrupted. Only the display waits for this: a busy database must not turn a
 * page load into an error, so a failure is one warning line and the next read tries again.
 */
import { errorLine } from "@/lib/contracts/error-line";
import { markDeadNightsInterrupted } from "@/lib/db/sleep-night-liveness";
import { staleAfterMs } from "@/lib/services/run-reads";

export async function noticeDeadNights(): Promise<void> {
  try {
    await markDeadNightsInterrupted({ staleAfterMs: staleAfterMs(), detectedBy: "the dashboard" });
  } catch (e) {
    console.warn(`[api] Sleep nights: dead nights not marked interrupted yet: ${errorLine(e)}`);
  }
}

/** What the run handler gets from the worker process. */
import type { Logger } from "../logger";

export interface HandlerContext {
  workerId: string;
  rootDir: string;
  /** Aborted when the worker shuts down: the run stops at a safe point and is queued again. */
  shutdown: AbortSignal;
  /** A run whose owner sent no heartbeat for this long is considered dead and may be taken over. */
  staleAfterMs: number;
  publish(runId: string, seq: number): void;
  log: Logger;
}

/**
 * Records a CLI training run in the dashboard's database (source "cli"): the run row, every engine
 * event with its rows (steps, versions, edits, evaluations), the backends' usage rows and so the read
 * model. The run folder stays the CLI's own record; this is a copy for the dashboard. The database
 * failing is one warning line and the run goes on file-only — never a failed run.
 */
import type { EngineEvent } from "../contracts/events";
import { STEP_EVENT_TYPES } from "../contracts/events";
import { errorLine } from "../contracts/error-line";
import type { Db } from "./client";
import { appendRunEvent, persistEngineEvent } from "./engine-events";
import { addLlmUsage, type UsageDelta } from "./llm-usage";
import { commitPointKey, recordResume, storedCommitPoints } from "./resume-events";
import { createRun, markRunFinished, type NewRun } from "./runs";

const STEP_EVENTS: ReadonlySet<string> = new Set(STEP_EVENT_TYPES);
const HEARTBEAT_MS = 5_000;

export interface CliRecorderOptions {
  db: Db;
  /** Prints the one warning line when the database stops answering. */
  warn: (line: string) => void;
  /** The backends' usage increments since the previous call (a UsageFlusher's `take`). */
  takeUsage: () => UsageDelta[];
  /** The engine's skill hash. */
  hash: (s: string) => string;
  workerId?: string;
  /** Called once when the dashboard's Cancel button asked this run to stop. */
  onCancel?: () => void;
}

export class CliRunRecorder {
  private off = false;
  private runId: string | null = null;
  private committedSteps = 0;
  private storedCommits = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private beat: ReturnType<typeof setInterval> | null = null;
  private cancelled = false;

  constructor(private readonly o: CliRecorderOptions) {}

  /** The run's id in the database, or null when it is not (or no longer) recorded. */
  get id(): string | null {
    return this.off ? null : this.runId;
  }

  private async guard(fn: () => Promise<void>): Promise<void> {
    if (this.off) return;
    try {
      await fn();
    } catch (e) {
      this.off = true;
      this.stopHeartbeat();
      this.o.warn(
        `warning: the dashboard database did not answer (${errorLine(e)}); this run is kept in its output folder only`,
      );
    }
  }

  /** Creates the run row, or takes up the row of the run in `outDir` on `--resume`. */
  async start(input: NewRun & { outDir: string }, opts: { resume: boolean }): Promise<void> {
    await this.guard(async () => {
      const { db } = this.o;
      const workerId = this.o.workerId ?? `cli-${process.pid}`;
      const prior = opts.resume
        ? await db.run.findFirst({ where: { source: "cli", outDir: input.outDir }, orderBy: { createdAt: "desc" } })
        : null;
      const now = new Date();
      if (prior) {
        this.runId = prior.id;
        this.committedSteps = prior.stepsDone;
        this.storedCommits = await storedCommitPoints(prior.id, { db });
        await db.run.update({
          where: { id: prior.id },
          data: { status: "running", workerId, heartbeatAt: now, finishedAt: null, errorMessage: null },
        });
        await appendRunEvent(prior.id, { type: "runClaimed", workerId, resumed: true }, { db });
        await recordResume(prior.id, prior.stepsDone + 1, { db });
      } else {
        await createRun(input, { db });
        await db.run.update({
          where: { id: input.id },
          data: { source: "cli", outDir: input.outDir, status: "running", workerId, heartbeatAt: now, startedAt: now },
        });
        this.runId = input.id;
        await appendRunEvent(input.id, { type: "runClaimed", workerId, resumed: false }, { db });
      }
      // A CLI run between two events is alive: the dashboard shows it interrupted only when this stops.
      this.beat = setInterval(() => {
        if (!this.runId || this.off) return;
        void db.run
          .update({ where: { id: this.runId }, data: { heartbeatAt: new Date() }, select: { cancelRequested: true } })
          .then((r) => {
            if (r.cancelRequested && !this.cancelled) {
              this.cancelled = true;
              this.o.onCancel?.();
            }
          })
          .catch(() => {});
      }, HEARTBEAT_MS);
      this.beat.unref?.();
    });
  }

  /** Stores one engine event and the usage since the previous one (events replayed by a resume are skipped). */
  emit(e: EngineEvent): Promise<void> {
    const next = this.chain.then(() =>
      this.guard(async () => {
        if (!this.runId || this.replayed(e)) return;
        await persistEngineEvent(this.runId, e, this.o.hash, this.o.db);
        await addLlmUsage(this.runId, this.o.takeUsage(), this.o.db);
      }),
    );
    this.chain = next;
    return next;
  }

  private replayed(e: EngineEvent): boolean {
    if (STEP_EVENTS.has(e.type) && "step" in e && typeof e.step === "number" && e.step <= this.committedSteps)
      return true;
    return this.storedCommits.has(commitPointKey(e.type, "epoch" in e ? e.epoch : undefined));
  }

  /** True when the dashboard's Cancel stopped the run. */
  get cancelRequested(): boolean {
    return this.cancelled;
  }

  /** Saves the last usage and how the run ended. */
  async finish(
    status: "succeeded" | "failed" | "cancelled" | "interrupted" | "budget_exhausted",
    extra: { errorMessage?: string; stopReason?: string } = {},
  ): Promise<void> {
    await this.chain;
    this.stopHeartbeat();
    await this.guard(async () => {
      if (!this.runId) return;
      await addLlmUsage(this.runId, this.o.takeUsage(), this.o.db);
      const row = await this.o.db.run.findUnique({ where: { id: this.runId }, select: { stopReason: true } });
      await markRunFinished(
        this.runId,
        status,
        { stopReason: extra.stopReason ?? row?.stopReason ?? undefined, errorMessage: extra.errorMessage },
        { db: this.o.db },
      );
    });
  }

  private stopHeartbeat(): void {
    if (this.beat) clearInterval(this.beat);
    this.beat = null;
  }
}

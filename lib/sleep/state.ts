/**
 * The cross-night state (`<state dir>/state.json`, spec D.12): the night counter, the harvest checkpoint
 * per project, the night history, the archive of past tasks for recall and the model used last. Written
 * atomically (temporary file + rename), so a crash leaves the previous state intact.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AppError } from "../errors";
import { writeFileAtomic } from "./fs-safe";
import { camelKeys, snakeKeys } from "./keys";
import { TaskRecordSchema, type TaskRecord } from "./types";

/** Past tasks kept for recall. */
export const TASK_ARCHIVE_CAP = 300;

export const NightSummarySchema = z.looseObject({
  night: z.number(),
  accepted: z.boolean(),
  baseline: z.number().optional(),
  candidate: z.number().optional(),
  nTasks: z.number(),
  staging: z.string().optional(),
});
export type NightSummary = z.infer<typeof NightSummarySchema>;

/** A handoff night stopped at a round of prompts: the same command, once they are answered, continues it. */
export const HandoffWaitingSchema = z.object({
  project: z.string(),
  night: z.number().int(),
  handoffDir: z.string(),
  promptsPath: z.string(),
  answersDir: z.string(),
  pending: z.number().int(),
  /** Local time of the round (YYYY-MM-DDTHH:MM:SS). */
  since: z.string(),
});
export type HandoffWaiting = z.infer<typeof HandoffWaitingSchema>;

const StateSchema = z.object({
  version: z.literal(1).catch(1).default(1),
  night: z.number().int().min(0).catch(0).default(0),
  /** Project folder → local time (YYYY-MM-DDTHH:MM:SS) of the last harvest. */
  lastHarvest: z.record(z.string(), z.string()).catch({}).default({}),
  slowMemory: z.string().catch("").default(""),
  history: z.array(NightSummarySchema).catch([]).default([]),
  taskArchive: z.array(z.unknown()).catch([]).default([]),
  lastModelKey: z.string().catch("").default(""),
  /** 1: raw configured names (never compared); 2: the resolved backend::model. */
  lastModelKeyFormat: z.number().int().catch(1).default(1),
  /** Handoff nights waiting for answers, one per project. */
  handoffWaiting: z.array(HandoffWaitingSchema).catch([]).default([]),
});
export type StateData = z.infer<typeof StateSchema>;

export class SleepState {
  constructor(
    readonly path: string,
    readonly data: StateData,
  ) {}

  /** Reads `state.json`; a missing file is a fresh state, a corrupt one is an error naming the file. */
  static load(stateDir: string): SleepState {
    const path = join(stateDir, "state.json");
    if (!existsSync(path)) return new SleepState(path, StateSchema.parse({}));
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, "utf8"));
    } catch (err) {
      throw new AppError("INVALID_REQUEST", `${path}: not valid JSON (${(err as Error).message}); fix or remove it`, {
        field: path,
      });
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new AppError("INVALID_REQUEST", `${path}: expected a JSON object`, { field: path });
    }
    return new SleepState(path, StateSchema.parse(camelKeys(raw, ["lastHarvest"])));
  }

  save(): void {
    writeFileAtomic(this.path, `${JSON.stringify(snakeKeys(this.data, ["last_harvest"]), null, 2)}\n`);
  }

  get night(): number {
    return this.data.night;
  }

  beginNight(): number {
    this.data.night += 1;
    return this.data.night;
  }

  lastHarvestFor(project: string): string | null {
    return this.data.lastHarvest[project] ?? null;
  }

  setLastHarvest(project: string, localIso: string): void {
    this.data.lastHarvest[project] = localIso;
  }

  recordNight(summary: NightSummary): void {
    this.data.history.push(summary);
  }

  /** Archived tasks that still parse (an old or hand-edited entry is skipped, not fatal). */
  taskArchive(): TaskRecord[] {
    const out: TaskRecord[] = [];
    for (const raw of this.data.taskArchive) {
      const t = TaskRecordSchema.safeParse(raw);
      if (t.success) out.push(t.data);
    }
    return out;
  }

  addToArchive(tasks: TaskRecord[]): void {
    this.data.taskArchive.push(...tasks);
    if (this.data.taskArchive.length > TASK_ARCHIVE_CAP)
      this.data.taskArchive = this.data.taskArchive.slice(-TASK_ARCHIVE_CAP);
  }

  handoffWaitingFor(project: string): HandoffWaiting | null {
    return this.data.handoffWaiting.find((w) => w.project === project) ?? null;
  }

  /** Records (or replaces) the project's waiting handoff night; `null` clears it. */
  setHandoffWaiting(project: string, waiting: HandoffWaiting | null): void {
    this.data.handoffWaiting = this.data.handoffWaiting.filter((w) => w.project !== project);
    if (waiting) this.data.handoffWaiting.push(waiting);
  }

  setLastModelKey(key: string): void {
    this.data.lastModelKey = key;
    this.data.lastModelKeyFormat = 2;
  }

  /** A warning when the resolved model differs from last night's (learned text may not transfer). */
  modelChangeWarning(currentKey: string): string | null {
    const prior = this.data.lastModelKey;
    if (!prior || this.data.lastModelKeyFormat < 2 || prior === currentKey) return null;
    return `model changed since last night (was '${prior}', now '${currentKey}'); learned skill text may not transfer cleanly — consider starting from a fresh skill document`;
  }
}

/** Local wall time as `YYYY-MM-DDTHH:MM:SS` (the format harvest checkpoints compare against). */
export function localIso(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

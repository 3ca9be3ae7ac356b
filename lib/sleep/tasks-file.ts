/**
 * Task files (spec D.13): `sleep harvest --output` writes the mined tasks for a person to review and redact;
 * `--tasks-file` replays such a file instead of harvesting. A file is only trusted with a real backend once
 * a person set its top-level `reviewed` to true (the CLI enforces that). Rule checks are validated on load:
 * an error aborts (a check that can never work reads like a model that never complies), a warning is returned.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { redactDeep } from "../contracts/redact";
import { AppError } from "../errors";
import { writeFileAtomic } from "./fs-safe";
import { validateChecks } from "./judges";
import { camelKeys, snakeKeys } from "./keys";
import { assignSplits } from "./mine";
import { TaskRecordSchema, type TaskRecord } from "./types";

export const TASKS_FORMAT = "skillopt_sleep.tasks.v1";

export interface TasksMeta {
  format: string;
  tasksFile: string;
  project?: string;
  transcriptSource?: string;
  nSessions?: number;
  targetSkillPath?: string;
  reviewed: boolean;
}

export function makeTasksPayload(
  tasks: readonly TaskRecord[],
  m: { project: string; transcriptSource: string; nSessions: number; targetSkillPath: string },
): Record<string, unknown> {
  return {
    format: TASKS_FORMAT,
    project: m.project,
    transcript_source: m.transcriptSource,
    n_sessions: m.nSessions,
    target_skill_path: m.targetSkillPath,
    reviewed: false,
    tasks: snakeKeys(redactDeep(tasks)),
  };
}

export function writeTasksFile(path: string, payload: Record<string, unknown>): string {
  const out = resolve(path);
  writeFileAtomic(out, `${JSON.stringify(payload, null, 2)}\n`);
  return out;
}

export interface LoadedTasks {
  tasks: TaskRecord[];
  meta: TasksMeta;
  warnings: string[];
}

function invalid(file: string, message: string): AppError {
  return new AppError("INVALID_REQUEST", `${file}: ${message}`, { field: file });
}

/** Reads a tasks file (an object with `tasks`, or a bare array); tasks get hash splits when none is val or test. */
export function loadTasksFile(path: string, o: { valFraction: number; seed: number }): LoadedTasks {
  const file = resolve(path);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw invalid(file, `cannot read the tasks file (${(err as Error).message})`);
  }
  const obj = Array.isArray(raw) ? { tasks: raw } : raw;
  if (typeof obj !== "object" || obj === null)
    throw invalid(file, "expected a JSON object with 'tasks', or a JSON array of tasks");
  const { tasks: rawTasks, ...rest } = obj as Record<string, unknown>;
  if (!Array.isArray(rawTasks)) throw invalid(file, "'tasks' must be an array");
  const tasks: TaskRecord[] = [];
  rawTasks.forEach((t, i) => {
    const parsed = TaskRecordSchema.safeParse(camelKeys(t, ["judge"]));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw invalid(file, `tasks[${i}].${issue.path.join(".")}: ${issue.message}`);
    }
    tasks.push(parsed.data);
  });
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const t of tasks) {
    if (t.referenceKind !== "rule") continue;
    const v = validateChecks(t.judge);
    errors.push(...v.errors.map((e) => `task ${t.id}: ${e}`));
    warnings.push(...v.warnings.map((w) => `task ${t.id}: ${w}`));
  }
  if (errors.length > 0) throw invalid(file, `unusable rule checks:\n  ${errors.join("\n  ")}`);
  if (tasks.length >= 2 && !tasks.some((t) => t.split === "val" || t.split === "test"))
    assignSplits(tasks, { valFraction: o.valFraction, testFraction: 0, seed: o.seed });
  const m = camelKeys(rest) as Record<string, unknown>;
  const meta: TasksMeta = {
    format: typeof m.format === "string" ? m.format : TASKS_FORMAT,
    tasksFile: file,
    project: typeof m.project === "string" ? m.project : undefined,
    transcriptSource: typeof m.transcriptSource === "string" ? m.transcriptSource : undefined,
    nSessions: typeof m.nSessions === "number" ? m.nSessions : undefined,
    targetSkillPath: typeof m.targetSkillPath === "string" ? m.targetSkillPath : undefined,
    reviewed: m.reviewed === true,
  };
  return { tasks, meta, warnings };
}

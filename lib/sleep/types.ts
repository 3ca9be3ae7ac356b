/**
 * The data that flows between the stages of a night (spec D.2): mined tasks, replay results, proposed
 * edits, gate trials and the night's report. Tasks are zod-checked where they cross a boundary (a tasks
 * file, the state archive, the handoff snapshot); inside lib/sleep they are trusted.
 */
import { z } from "zod";

export const SPLITS = ["train", "val", "test"] as const;

/** Old split names (replay → train, holdout → val) are accepted and normalised. */
export function normaliseSplit(value: string): string {
  if (value === "replay") return "train";
  if (value === "holdout") return "val";
  return value;
}

export const OUTCOMES = ["success", "fail", "mixed", "unknown"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const REFERENCE_KINDS = ["exact", "rubric", "rule", "answer", "none"] as const;

/** One rule check of a rule judge: `{op, arg}`; `arg` is a string, a number or absent. */
export type RuleCheck = { op: string; arg?: unknown };

export const RuleJudgeSchema = z.looseObject({ kind: z.string().optional(), checks: z.array(z.unknown()).optional() });
export type RuleJudge = { kind?: string; checks?: unknown[] };

export const TaskRecordSchema = z.object({
  id: z.string().min(1),
  project: z.string().default(""),
  /** What the user wanted: the task's question. */
  intent: z.string(),
  contextExcerpt: z.string().default(""),
  /** A benchmark's own rollout system prompt, used verbatim (`{skill_section}` is filled in). */
  system: z.string().default(""),
  attemptedSolution: z.string().default(""),
  outcome: z.enum(OUTCOMES).catch("unknown").default("unknown"),
  referenceKind: z.enum(REFERENCE_KINDS).catch("none").default("none"),
  /** The exact answer, or the rubric text. */
  reference: z.string().default(""),
  judge: RuleJudgeSchema.default({}),
  tags: z.array(z.string()).default([]),
  sourceSessions: z.array(z.string()).default([]),
  split: z.string().transform(normaliseSplit).pipe(z.enum(SPLITS)).default("train"),
  /** `dream` tasks are synthetic training variants and never enter val/test. */
  origin: z.enum(["real", "dream"]).default("real"),
  derivedFrom: z.string().default(""),
  /** The one skill the source session used, or "" (unknown or several). */
  skillHint: z.string().default(""),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** A task with every optional field filled with its default. */
export function makeTask(fields: Partial<TaskRecord> & Pick<TaskRecord, "id" | "intent">): TaskRecord {
  return TaskRecordSchema.parse(fields);
}

export interface ReplayResult {
  id: string;
  hard: number;
  soft: number;
  response: string;
  failReason: string;
  /** The task's first tag, or "task". */
  taskType: string;
  judgeRationale: string;
  toolsCalled: string[];
  /** Tokens the backend spent on this rollout, or a text-length estimate when it counts none. */
  tokens: number;
  latencyMs: number;
}

export type EditTarget = "skill" | "memory";

export interface EditRecord {
  target: EditTarget;
  /** add | delete | replace; anything else is reported as unmatched. */
  op: string;
  content: string;
  anchor: string;
  rationale: string;
}

export type DeltaStatus = "improved" | "regressed" | "unchanged";

export interface TaskDelta {
  taskId: string;
  tags: string[];
  baselineScore: number | null;
  candidateScore: number | null;
  status: DeltaStatus;
  scoresAreFinite: boolean;
}

/** One gated candidate: a skill trial, a memory trial, or the final replay. */
export interface GateTrial {
  target: "skill" | "memory" | "final";
  baselineScore: number | null;
  candidateScore: number | null;
  accepted: boolean;
  blockedByRegression: boolean;
  taskDeltas: TaskDelta[];
}

export type GateActionName =
  "accept_new_best" | "accept" | "reject" | "reject_unverified" | "greedy_applied" | "greedy_noop";

export interface HoldoutDetail {
  id: string;
  referenceKind: string;
  hard: number;
  soft: number;
  responseLen: number;
  responseHead: string;
  why: string;
}

export interface ConsolidationResult {
  accepted: boolean;
  gateAction: GateActionName;
  baselineScore: number;
  candidateScore: number;
  newSkill: string;
  newMemory: string;
  appliedEdits: EditRecord[];
  rejectedEdits: EditRecord[];
  /** Edits that changed nothing (anchor absent, duplicate or empty add, unknown op): never gated. */
  unmatchedEdits: EditRecord[];
  holdoutBaseline: number;
  holdoutCandidate: number;
  holdoutDetail: HoldoutDetail[];
  reflectRaw: string;
  callError: string;
  /** The gate's validation tasks were not disjoint from the ones the optimizer saw. */
  holdoutLeaked: boolean;
  gateTrials: GateTrial[];
}

export type SkillGroupStatus = "consolidated" | "skipped" | "failed";

export interface SkillGroupReport {
  skillName: string;
  status: SkillGroupStatus;
  accepted: boolean;
  gateAction: string;
  baselineScore: number;
  candidateScore: number;
  nTasks: number;
  nAppliedEdits: number;
  nRejectedEdits: number;
  reason: string;
}

export interface SleepReport {
  night: number;
  project: string;
  startedAt: string;
  endedAt: string;
  nSessions: number;
  nTasks: number;
  nReplayed: number;
  baselineScore: number;
  candidateScore: number;
  accepted: boolean;
  gateAction: string;
  holdoutLeaked: boolean;
  noEditsReason: string;
  edits: EditRecord[];
  rejectedEdits: EditRecord[];
  unmatchedEdits: EditRecord[];
  skillGroups: SkillGroupReport[];
  tokensUsed: number;
  notes: string[];
  gateNoRegression: boolean;
  gateTrials: GateTrial[];
}

export function emptyReport(night: number, project: string, startedAt: string): SleepReport {
  return {
    night,
    project,
    startedAt,
    endedAt: "",
    nSessions: 0,
    nTasks: 0,
    nReplayed: 0,
    baselineScore: 0,
    candidateScore: 0,
    accepted: false,
    gateAction: "",
    holdoutLeaked: false,
    noEditsReason: "",
    edits: [],
    rejectedEdits: [],
    unmatchedEdits: [],
    skillGroups: [],
    tokensUsed: 0,
    notes: [],
    gateNoRegression: false,
    gateTrials: [],
  };
}

/**
 * The dashboard's SkillOpt-Sleep contracts: project input (create/edit), night statuses and the shapes
 * the Sleep API answers with. Shared by route handlers and the browser; the server adds the checks that
 * need the machine (folders exist and lie inside the allowed roots, the cron pattern parses, the backend
 * is known).
 */
import { z } from "zod";

/** Mirrors lib/sleep/session-digest.ts (contracts stay a leaf module). */
export const SLEEP_TRANSCRIPT_SOURCES = [
  "claude",
  "codex",
  "copilot",
  "copilot_cli",
  "cursor",
  "pi",
  "opencode",
  "auto",
] as const;

/** Backends the worker can run unattended (lib/sleep/backend/build.ts knows more names; handoff needs a person). */
export const SLEEP_DASHBOARD_BACKENDS = [
  "mock",
  "claude",
  "codex",
  "copilot",
  "cursor",
  "pi",
  "opencode",
  "openai",
  "anthropic",
  "openai-compatible",
  "azure_openai",
] as const;

export const SLEEP_NIGHT_STATUSES = [
  "queued",
  "running",
  "staged",
  "adopted",
  "discarded",
  "failed",
  "dry_run",
  "no_tasks",
  "handoff_pending",
  "interrupted",
] as const;
export type SleepNightStatus = (typeof SLEEP_NIGHT_STATUSES)[number];
/** Statuses of a night that is not over yet. */
export const SLEEP_ACTIVE_STATUSES: readonly SleepNightStatus[] = ["queued", "running"];
/** Statuses a night can be discarded from (its staging folder removed, the row kept as discarded). */
export const SLEEP_DISCARDABLE_STATUSES: readonly SleepNightStatus[] = [
  "staged",
  "dry_run",
  "no_tasks",
  "handoff_pending",
  "interrupted",
];

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const clean = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !CONTROL.test(s), "must not contain control characters");
const absPath = clean(4096).refine((s) => s === "" || s.startsWith("/"), "must be an absolute path");

export const SleepProjectInputSchema = z.strictObject({
  name: clean(120)
    .transform((s) => s.trim())
    .pipe(z.string().min(1, "must not be empty")),
  directory: absPath.refine((s) => s !== "", "must not be empty"),
  transcriptSource: z.enum(SLEEP_TRANSCRIPT_SOURCES).default("claude"),
  /** The source's home folder (Claude Code's `~/.claude`, Codex's `~/.codex`, …); "" = the default. */
  transcriptHome: absPath.default(""),
  /** The live skill to improve; "" = the managed skill under the agent's home. */
  targetSkillPath: absPath.default(""),
  /** A tasks file (`sleep harvest --output`, reviewed) replayed instead of harvesting; "" = harvest. */
  tasksFile: absPath.default(""),
  backend: clean(40)
    .refine((s) => /^[A-Za-z0-9_-]+$/.test(s), "must be a backend name")
    .default("mock"),
  model: clean(200).default(""),
  lookbackHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(72),
  /** Five or six cron fields ("0 3 * * *" = every night at 03:00, the worker's time zone); "" = no schedule. */
  cronPattern: clean(120)
    .transform((s) => s.trim())
    .default(""),
  enabled: z.boolean().default(false),
});
export type SleepProjectInput = z.infer<typeof SleepProjectInputSchema>;

export const SleepNightActionSchema = z.strictObject({ action: z.enum(["adopt", "discard"]) });
export const SleepRunRequestSchema = z.strictObject({ dryRun: z.boolean().default(false) });
export const SleepIdSchema = z.string().uuid("must be an id");

export interface SleepProjectView extends SleepProjectInput {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** The next time the schedule fires (ISO), when enabled. */
  nextRunAt: string | null;
  lastNight: { id: string; status: SleepNightStatus; createdAt: string } | null;
}

export interface SleepNightSummary {
  id: string;
  projectId: string | null;
  projectName: string | null;
  projectDir: string;
  night: number;
  status: SleepNightStatus;
  trigger: string;
  dryRun: boolean;
  backend: string;
  nSessions: number;
  nTasks: number;
  nTrain: number;
  nVal: number;
  nTest: number;
  baselineScore: number | null;
  candidateScore: number | null;
  accepted: boolean;
  gateAction: string;
  editsAccepted: number;
  editsRejected: number;
  editsUnmatched: number;
  tokensUsed: number;
  error: string;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface SleepGateRowView {
  trial: string;
  taskId: string;
  baselineScore: number | null;
  candidateScore: number | null;
  status: string;
}

export interface SleepEditView {
  target: string;
  op: string;
  content: string;
  anchor: string;
  rationale: string;
}

export interface SleepProposalView {
  /** skill | memory | a per-skill name. */
  label: string;
  livePath: string;
  liveText: string;
  proposedText: string;
  /** The live file no longer has the bytes the night started from: adopt will refuse. */
  liveChanged: boolean;
  adopted: boolean;
}

export interface SleepNightDetail extends SleepNightSummary {
  stagingDir: string;
  evidencePath: string;
  liveSkillPath: string;
  adoptedAt: string | null;
  notes: string[];
  edits: SleepEditView[];
  rejectedEdits: SleepEditView[];
  unmatchedEdits: SleepEditView[];
  gates: SleepGateRowView[];
  proposals: SleepProposalView[];
  /** Why the proposals cannot be shown ("" when they can). */
  proposalsError: string;
  /** A handoff night waiting for answers: where its prompts are (null otherwise). */
  handoff: SleepHandoffView | null;
}

export interface SleepHandoffView {
  dir: string;
  promptsPath: string;
  answersDir: string;
  pending: number;
}

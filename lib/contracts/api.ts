/**
 * The HTTP API between the dashboard and the server: request schemas (validated by the route handlers)
 * and response types (what the pages render). Client-safe: zod and types only.
 */
import { z } from "zod";
import { BudgetSectionSchema, type RunConfig } from "./run-config";
import type { BestMeasuredBy } from "./best";
import type { SelectionCoverage } from "./coverage";

// ---------- requests ----------

/** A run id as we generate them (UUID v4) — anything else is rejected before touching the database. */
export const RunIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "not a run id");

export const MAX_SKILL_CHARS = 200 * 1024;
export const MAX_OVERRIDES = 500;

export const CreateRunSchema = z.object({
  name: z.string().trim().max(120).optional(),
  /** Preset path relative to configs/, e.g. "searchqa/sample.yaml"; its YAML is the base of the run. */
  preset: z
    .string()
    .regex(/^[\w./-]+\.ya?ml$/, "expected a preset path like searchqa/sample.yaml")
    // Relative to configs/ and inside it: no absolute path, no `..` segment (presetPath also checks the real path).
    .refine(
      (p) => !p.startsWith("/") && !p.split("/").includes(".."),
      "expected a preset path inside configs/, like searchqa/sample.yaml",
    ),
  /** Dotted config keys → values the user changed in the form (same rules as --cfg-options). */
  overrides: z
    .record(
      z.string().regex(/^[a-z_]+\.[a-z_0-9]+$/, "expected section.key"),
      z.union([z.string(), z.number(), z.boolean(), z.null()]),
    )
    // The whole config has a few hundred keys; thousands of overrides are only a way to keep the loader busy.
    .refine((o) => Object.keys(o).length <= MAX_OVERRIDES, `at most ${MAX_OVERRIDES} overrides`)
    .default({}),
  /** The seed skill; the preset's initial.md when omitted. */
  skill: z.string().max(MAX_SKILL_CHARS, "the skill is over 200 KB").optional(),
  /**
   * Custom benchmark: true when the user chose to train on the preset's own example file instead of an
   * upload. A custom run without an uploaded file (env.data_path) needs it, so a failed upload can never
   * silently become a run on the example.
   */
  exampleData: z.boolean().optional(),
});
export type CreateRunInput = z.input<typeof CreateRunSchema>;

/**
 * `Idempotency-Key` header of POST /api/runs: the form sends one per submission, so a retried request
 * (a timeout, a double click, a flaky network) answers with the run it created instead of a second run.
 */
export const IdempotencyKeySchema = z
  .string()
  .trim()
  .min(8, "at least 8 characters")
  .max(200)
  .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces");

export interface CreateRunResponse {
  id: string;
  /** False when the queue (Redis) was unreachable: the run is stored as queued and starts once Redis is back. */
  queued: boolean;
  message?: string;
}

// Custom datasets (uploads, metrics, split fingerprints) live in ./datasets; re-exported for existing importers.
export * from "./datasets";

export const RunActionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("cancel") }),
  z.object({
    action: z.literal("resume"),
    /** A new budget for a run that paused because its budget was spent. */
    budget: BudgetSectionSchema.optional(),
  }),
]);
export type RunAction = z.input<typeof RunActionSchema>;

// ---------- responses ----------

/** Error body of every 4xx/5xx: `field` names the offending input when there is one. */
export interface ApiErrorBody {
  error: { code: string; message: string; field?: string };
}

export interface RunListItem {
  id: string;
  name: string;
  status: string;
  env: string;
  optimizerBackend: string;
  optimizerModel: string;
  targetBackend: string;
  targetModel: string;
  simulated: boolean;
  /** "dashboard" or "cli" (trained by `npm run skillopt -- train`, resumed only there). */
  source: string;
  baselineScore: number | null;
  bestScore: number | null;
  /** Where the best skill came from (initial_skill, step_0009, slow_update_epoch_03): see contracts/best.ts. */
  bestOrigin: string | null;
  /** Where its score was measured (baseline, step_gate, slow_update_gate, final_check). */
  bestMeasuredBy: BestMeasuredBy | null;
  /** The best skill's size in UTF-8 bytes. */
  bestBytes: number | null;
  testInitial: number | null;
  testBest: number | null;
  stepsDone: number;
  stepsTotal: number;
  epoch: number;
  numEpochs: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  errorMessage: string | null;
  /** The user's labels and note (lib/contracts/run-list.ts). */
  tags: string[];
  note: string | null;
}

/** One page of the runs table (query: RunsTableQuerySchema). */
export interface RunListResponse {
  runs: RunListItem[];
  /** Runs matching the filters and search, over all pages. */
  total: number;
  page: number;
  limit: number;
  envs: string[];
  /** Every tag in use. */
  tags: string[];
}

export interface StepRow {
  step: number;
  epoch: number;
  stepInEpoch: number;
  action: string;
  budget: number | null;
  nFailurePatches: number;
  nSuccessPatches: number;
  nMerged: number;
  nRanked: number;
  nApplied: number;
  nSkipped: number;
  trainHard: number | null;
  trainSoft: number | null;
  selectionHard: number | null;
  selectionSoft: number | null;
  candidateScore: number | null;
  currentScore: number | null;
  bestScore: number | null;
  /** What the gate's scores were taken over (items both skills answered); null for steps without a gate. */
  coverage: SelectionCoverage | null;
  createdAt: string;
}

export interface SkillVersionMeta {
  kind: string; // seed candidate slow_update final
  step: number;
  epoch: number;
  contentHash: string;
  status: string | null;
  selectionHard: number | null;
  gateScore: number | null;
  chars: number;
}

export interface UsageRow {
  stage: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

/** What the backends' policy layer counted for one role and stage. */
export interface BackendUsageRow {
  role: string;
  stage: string;
  backend: string;
  model: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  /** Calls that finally failed, by kind (rate_limited, transient, fatal, aborted). */
  errors: Record<string, number>;
  retries: number;
  cacheHits: number;
  /** null = unknown price (never shown as 0). */
  costUsd: number | null;
  costSavedUsd: number | null;
}

export interface RunDetail extends RunListItem {
  config: RunConfig;
  sourceYaml: string;
  seedSkill: string;
  currentScore: number | null;
  bestStep: number | null;
  bestSkillHash: string | null;
  testFinal: number | null;
  stopReason: string | null;
  cancelRequested: boolean;
  lastEventSeq: number;
  /** Automatic restarts after a lost worker since the run was created or last resumed by the user. */
  autoRestarts: number;
  /** Seconds left at the current pace; null until a step has finished. */
  etaSeconds: number | null;
  steps: StepRow[];
  skillVersions: SkillVersionMeta[];
  usage: UsageRow[];
  backendUsage: BackendUsageRow[];
}

export interface EditRow {
  ord: number;
  stage: string; // proposed merged selected
  origin: string;
  op: string;
  target: string | null;
  content: string | null;
  rationale: string | null;
  support: number | null;
  mergeLevel: number | null;
  applyStatus: string | null;
  gateStatus: string | null;
}

export interface EvalRow {
  itemId: string;
  hard: number;
  soft: number;
  status: string;
  prediction: string | null;
  reference: string | null;
  failReason: string | null;
}

/** One stored per-item evaluation row (`GET /api/runs/{id}/evals`). */
export interface EvalResultRow extends EvalRow {
  step: number;
  label: string;
  split: string;
  trajectory: string | null;
  latencyMs: number | null;
}

export interface StepDetail {
  step: StepRow & { record: Record<string, unknown> };
  /** The skill the step started from. */
  current: { content: string; hash: string };
  candidate: {
    content: string;
    hash: string;
    status: string | null;
    selectionHard: number | null;
    selectionSoft: number | null;
    gateScore: number | null;
  } | null;
  edits: EditRow[];
  /** Per-item selection outcome of the candidate, with the current skill's outcome when it was measured. */
  selection: Array<EvalRow & { currentHard: number | null; flipped: boolean }>;
  /** True when the current skill's per-item selection results are known (not a cached synthetic score). */
  currentKnown: boolean;
  /** When not known: the step whose per-item results stand in for the current skill's (0 = baseline). */
  currentFromStep?: number | null;
}

// Presets, backends, the pre-flight estimate and compare live in ./api-setup; re-exported for existing importers.
export * from "./api-setup";

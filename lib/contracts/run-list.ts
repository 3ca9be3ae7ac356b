/**
 * The runs table: its query (filters, text search, sort, page), the tags and note a user puts on a run,
 * and the delete answer. Client-safe: zod and types only.
 */
import { z } from "zod";
import { RUN_STATUSES } from "./run-status";

/** Columns the runs table sorts by; derived ones (tokens, test gain, duration) are computed by the database. */
export const RUN_SORT_KEYS = [
  "status",
  "name",
  "env",
  "optimizer",
  "target",
  "selection",
  "testBest",
  "testGain",
  "steps",
  "tokens",
  "cost",
  "started",
  "duration",
] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];

export const RUN_PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_RUN_PAGE_SIZE = 50;

/** GET /api/runs: every parameter optional; the newest runs first by default. */
export const RunsTableQuerySchema = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  env: z.string().max(64).optional(),
  tag: z.string().max(32).optional(),
  /** Matches the name, id, benchmark, models, note and tags (case-insensitive, plain text). */
  q: z.string().trim().max(200, "at most 200 characters").optional(),
  sort: z.enum(RUN_SORT_KEYS).default("started"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1, "pages start at 1").max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(DEFAULT_RUN_PAGE_SIZE),
});
export type RunsTableQuery = z.infer<typeof RunsTableQuerySchema>;

export const MAX_TAGS = 12;
export const MAX_TAG_CHARS = 32;
export const MAX_NOTE_CHARS = 2000;

/** One tag: lower-cased, letters, digits and `-_.:/+`, no spaces (so "a, b" in the editor is two tags). */
export const TagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "a tag may not be empty")
  .max(MAX_TAG_CHARS, `a tag has at most ${MAX_TAG_CHARS} characters`)
  .regex(/^[\p{L}\p{N}_.:/+-]+$/u, "a tag is letters, digits and - _ . : / + (no spaces)");

/** PUT /api/runs/{id}/annotations: replaces the run's tags and note (send both; null clears the note). */
export const RunAnnotationsSchema = z.object({
  tags: z
    .array(TagSchema)
    .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
    .transform((tags) => [...new Set(tags)]),
  note: z
    .string()
    .max(MAX_NOTE_CHARS, `the note has at most ${MAX_NOTE_CHARS} characters`)
    .nullable()
    .transform((n) => (n === null || n.trim() === "" ? null : n.trim())),
});
export type RunAnnotationsInput = z.input<typeof RunAnnotationsSchema>;
export type RunAnnotations = z.output<typeof RunAnnotationsSchema>;

/** Splits what a user typed in the tag box ("Baseline, seed-1 ablation") into tags; validation follows. */
export function splitTagInput(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

/** DELETE /api/runs/{id}: what went away. */
export interface DeleteRunResponse {
  id: string;
  /** Files and folders removed with the rows (a CLI run's output folder, a split only this run used). */
  removedPaths: string[];
}

/** The test-set gain of the best skill over the seed skill; null until both are measured. */
export function testGainOf(r: { testInitial: number | null; testBest: number | null }): number | null {
  return r.testInitial === null || r.testBest === null ? null : r.testBest - r.testInitial;
}

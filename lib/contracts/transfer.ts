/**
 * Transfer matrix: a finished run's best skill and its seed, each scored on the run's test split with other
 * target models. One cell per (skill, target); the matrix puts a target's two cells on one row with the
 * difference best − seed and what the cells cost. Pure (zod only), shared by the API, the page and the CLI.
 */
import { z } from "zod";

export const TRANSFER_SKILLS = ["seed", "best"] as const;
export type TransferSkill = (typeof TRANSFER_SKILLS)[number];
/** At most this many targets per request (each adds two test-split evaluations). */
export const MAX_TRANSFER_TARGETS = 8;

export const TransferTargetSchema = z.strictObject({
  backend: z.string().trim().min(1, "a backend name").max(64),
  model: z.string().trim().min(1, "a model name").max(200),
});
export type TransferTarget = z.infer<typeof TransferTargetSchema>;

/** A transfer cell's id in a URL (a UUID). */
export const TransferCellIdSchema = z.uuid("cellId must be a transfer cell id");

export const CreateTransferSchema = z.strictObject({
  targets: z.array(TransferTargetSchema).min(1, "pick at least one target").max(MAX_TRANSFER_TARGETS),
  /** Budget cap: refuse the request when its estimated target calls exceed this (no cap when absent). */
  maxCalls: z.number().int().positive("maxCalls must be a positive whole number").optional(),
});

export interface TransferCellView {
  /** The stored cell's id (the Retry API names it); absent for the CLI's cells, which are not stored. */
  id?: string;
  skill: TransferSkill;
  targetBackend: string;
  targetModel: string;
  status: "queued" | "running" | "succeeded" | "failed";
  /** Means over the answered test items. */
  hard: number | null;
  soft: number | null;
  nItems: number | null;
  nUnanswered: number | null;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** null when the model's price is unknown (never shown as 0). */
  costUsd: number | null;
  errorMessage: string | null;
}

export interface TransferMatrixRow {
  backend: string;
  model: string;
  seed: TransferCellView | null;
  best: TransferCellView | null;
  /** best − seed (hard), when both cells are done. */
  delta: number | null;
  /** Both cells' cost; null when one is unknown or missing. */
  costUsd: number | null;
  calls: number;
}

export interface TransferMatrixResponse {
  rows: TransferMatrixRow[];
  /** Whether the run's own target is one of the rows (its cells reproduce the run's test scores). */
  source: { backend: string; model: string };
}

const done = (c: TransferCellView | null): c is TransferCellView & { hard: number } =>
  c !== null && c.status === "succeeded" && c.hard !== null;

/** Rows ordered by backend, then model; a target's seed and best cells side by side. */
export function buildTransferMatrix(cells: readonly TransferCellView[]): TransferMatrixRow[] {
  const byTarget = new Map<string, TransferMatrixRow>();
  for (const c of cells) {
    const key = `${c.targetBackend}\u0000${c.targetModel}`;
    const row = byTarget.get(key) ?? {
      backend: c.targetBackend,
      model: c.targetModel,
      seed: null,
      best: null,
      delta: null,
      costUsd: null,
      calls: 0,
    };
    row[c.skill] = c;
    byTarget.set(key, row);
  }
  const rows = [...byTarget.values()];
  for (const r of rows) {
    r.delta = done(r.seed) && done(r.best) ? r.best.hard - r.seed.hard : null;
    const parts = [r.seed, r.best];
    r.calls = parts.reduce((s, c) => s + (c?.calls ?? 0), 0);
    r.costUsd = parts.every((c) => c !== null && c.costUsd !== null)
      ? parts.reduce((s, c) => s + c!.costUsd!, 0)
      : null;
  }
  return rows.sort((a, b) => a.backend.localeCompare(b.backend) || a.model.localeCompare(b.model));
}

/** The CSV's columns, in order (the dashboard's download and the CLI's `--csv` write the same). */
export const TRANSFER_CSV_COLUMNS = [
  "backend",
  "model",
  "seed_hard",
  "best_hard",
  "delta_hard",
  "seed_soft",
  "best_soft",
  "n_items",
  "unanswered_seed",
  "unanswered_best",
  "calls",
  "cost_usd",
  "status",
] as const;

const status = (r: TransferMatrixRow): string => [r.seed, r.best].map((c) => c?.status ?? "missing").join("/");

/** One record per row, keyed by TRANSFER_CSV_COLUMNS; unknown values are empty. */
export function transferRecords(rows: readonly TransferMatrixRow[]): Array<Record<string, string | number>> {
  const v = (x: number | null | undefined): string | number => (x === null || x === undefined ? "" : x);
  return rows.map((r) => ({
    backend: r.backend,
    model: r.model,
    seed_hard: v(r.seed?.hard),
    best_hard: v(r.best?.hard),
    delta_hard: v(r.delta),
    seed_soft: v(r.seed?.soft),
    best_soft: v(r.best?.soft),
    n_items: v(r.best?.nItems ?? r.seed?.nItems),
    unanswered_seed: v(r.seed?.nUnanswered),
    unanswered_best: v(r.best?.nUnanswered),
    calls: r.calls,
    cost_usd: v(r.costUsd),
    status: status(r),
  }));
}

/**
 * What a gate decision's scores were taken over: the selection items both skills answered, and why the
 * others were left out. Read from a step record (or a gateDecided event) and worded once, so the run
 * page, the event log and the CLI say the same thing.
 */

export interface SelectionCoverage {
  nItems: number;
  /** Items both skills answered: the only ones scored. */
  nPaired: number;
  nErrors: number;
  nTimeouts: number;
  nTruncated: number;
  /** Why the gate skipped the step instead of deciding, when it did. */
  skipReason: string | null;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The coverage a step record states (`selection_n`, `selection_n_paired`, …); null for records without it. */
export function coverageOfRecord(record: Record<string, unknown>): SelectionCoverage | null {
  const nItems = num(record.selection_n);
  const nPaired = num(record.selection_n_paired);
  if (nItems === null || nPaired === null) return null;
  return {
    nItems,
    nPaired,
    nErrors: num(record.selection_errors) ?? 0,
    nTimeouts: num(record.selection_timeouts) ?? 0,
    nTruncated: num(record.selection_truncated) ?? 0,
    skipReason: typeof record.gate_skip_reason === "string" ? record.gate_skip_reason : null,
  };
}

/** "1 error, 2 timeouts, 1 truncated" (zero counts left out); "" when all are zero. */
export function describeUnanswered(c: { nErrors: number; nTimeouts: number; nTruncated: number }): string {
  const parts: string[] = [];
  if (c.nErrors > 0) parts.push(`${c.nErrors} error${c.nErrors === 1 ? "" : "s"}`);
  if (c.nTimeouts > 0) parts.push(`${c.nTimeouts} timeout${c.nTimeouts === 1 ? "" : "s"}`);
  if (c.nTruncated > 0) parts.push(`${c.nTruncated} truncated`);
  return parts.join(", ");
}

/** "scored on 8 of 10 items (1 error, 1 truncated)". */
export function describeCoverage(c: Omit<SelectionCoverage, "skipReason">): string {
  const why = describeUnanswered(c);
  return `scored on ${c.nPaired} of ${c.nItems} items${why ? ` (${why})` : ""}`;
}

/** True when some selection item was left out of the comparison. */
export const isPartial = (c: SelectionCoverage | null): c is SelectionCoverage => c !== null && c.nPaired < c.nItems;

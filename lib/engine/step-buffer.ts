/**
 * The step buffer (spec §7.10): a digest of each earlier step of the epoch — its failure patterns and,
 * for rejected steps, the edits that did not help — fed back to the analysts, the autonomous learning
 * rate and the rewriter. Entries are stored per step, so a resumed run rebuilds the same buffer.
 */
import { pyFloatStr } from "./py-format";
import { isFailure } from "./scoring";
import type { AnalystResult, Trajectory, UpdateItem, UpdateMode } from "./types";

export interface FailurePattern {
  pattern: string;
  count: number;
  task_ids: string[];
}

export interface StepBufferEntry {
  step: number;
  action: string;
  n_total: number;
  n_fail: number;
  failure_patterns: FailurePattern[];
  score_before?: number;
  score_after?: number;
  /** Set when the reject was decided early (evaluation.early_decision): score_after is then a bound. */
  score_after_is_bound?: boolean;
  rejected_edits?: Record<string, unknown>[];
}

/** The text before the first ":" (trimmed), or the whole reason when it has no colon. */
function reasonPrefix(reason: string): string {
  const i = reason.indexOf(":");
  return i >= 0 ? reason.slice(0, i).trim() : reason;
}

/** Descriptions from the analysts' failure summaries, in minibatch order, deduplicated. */
function analystDescriptions(failureResults: readonly AnalystResult[]): string[] {
  const out: string[] = [];
  for (const r of failureResults) {
    const summary = Array.isArray(r.failure_summary) ? r.failure_summary : [];
    for (const s of summary) {
      if (typeof s !== "object" || s === null) continue;
      const { failure_type: type, description } = s as Record<string, unknown>;
      const t = typeof type === "string" ? type : "";
      const d = typeof description === "string" ? description.trim() : "";
      const text = d ? `${t}: ${d}` : t;
      if (text && !out.includes(text)) out.push(text);
    }
  }
  return out;
}

/**
 * Groups failed rows by the prefix of their failure reason and labels the i-th group with the i-th
 * analyst description (positional pairing, as in the original), falling back to the prefix.
 */
export function extractFailurePatterns(
  results: readonly Trajectory[],
  failureResults: readonly AnalystResult[],
): FailurePattern[] {
  const groups = new Map<string, string[]>();
  for (const r of results) {
    if (!isFailure(r.hard)) continue;
    // Python `r.get("fail_reason", "unknown")`: only a missing reason is "unknown"; "" keeps its own group.
    const key = reasonPrefix(r.failReason ?? "unknown");
    const ids = groups.get(key) ?? [];
    ids.push(r.id);
    groups.set(key, ids);
  }
  const descriptions = analystDescriptions(failureResults);
  return [...groups.entries()].map(([prefix, ids], i) => ({
    pattern: descriptions[i] ?? prefix,
    count: ids.length,
    task_ids: ids,
  }));
}

/** The compact form of a rejected item kept in the buffer. */
export function shortSummary(item: UpdateItem, mode: UpdateMode): Record<string, unknown> {
  if (mode === "patch") return { op: item.op ?? "?", content: item.content ?? "", target: item.target ?? "" };
  if (mode === "rewrite_from_suggestions")
    return { type: item.type ?? "", title: item.title ?? "", instruction: item.instruction ?? "" };
  const cs = Array.isArray(item.change_summary) ? item.change_summary.map(String) : [];
  return { title: item.title ?? "", change_summary: cs, source_type: item.source_type ?? "" };
}

export function buildBufferEntry(opts: {
  step: number;
  action: string;
  results: readonly Trajectory[];
  failureResults: readonly AnalystResult[];
  ranked: readonly UpdateItem[];
  mode: UpdateMode;
  scoreBefore: number;
  scoreAfter: number;
  /** The candidate's scoring stopped early: `scoreAfter` is the highest score it could have reached. */
  scoreAfterIsBound?: boolean;
}): StepBufferEntry {
  // Errors and timeouts are infrastructure, not skill failures: the digest the analysts read leaves them out.
  const answered = opts.results.filter((r) => r.status === "ok");
  const entry: StepBufferEntry = {
    step: opts.step,
    action: opts.action,
    n_total: answered.length || 1,
    n_fail: answered.filter((r) => isFailure(r.hard)).length,
    failure_patterns: extractFailurePatterns(answered, opts.failureResults),
  };
  if (opts.action.includes("reject") && opts.ranked.length > 0) {
    entry.score_before = opts.scoreBefore;
    entry.score_after = opts.scoreAfter;
    if (opts.scoreAfterIsBound) entry.score_after_is_bound = true;
    entry.rejected_edits = opts.ranked.map((it) => shortSummary(it, opts.mode));
  }
  return entry;
}

const q = (v: unknown): string => JSON.stringify(typeof v === "string" ? v : String(v ?? ""));

/** The buffer as prompt text; "" when empty. */
export function formatStepBuffer(entries: readonly StepBufferEntry[]): string {
  if (entries.length === 0) return "";
  const lines = [
    "Digest of the earlier steps of this epoch. Do not repeat edits that were rejected; give priority to " +
      "failure patterns that are still unsolved.",
  ];
  for (const e of entries) {
    lines.push("", `### Step ${e.step}: ${e.action.toUpperCase()} (${e.n_fail}/${e.n_total} failed)`);
    for (const p of e.failure_patterns) lines.push(`  - ${q(p.pattern)} ×${p.count} tasks: [${p.task_ids.join(", ")}]`);
    if (e.rejected_edits && e.rejected_edits.length > 0) {
      lines.push(
        `  Rejected (selection score ${pyFloatStr(e.score_before ?? 0)} → ${e.score_after_is_bound ? "at most " : ""}${pyFloatStr(e.score_after ?? 0)}):`,
      );
      e.rejected_edits.forEach((r, i) => {
        if ("op" in r) {
          const target = String(r.target ?? "");
          lines.push(`    ${i + 1}. [${String(r.op)}] ${target ? `target=${q(target)} → ` : ""}${q(r.content)}`);
        } else {
          lines.push(
            `    ${i + 1}. [${String(r.type ?? "rewrite")}] ${q(r.title)} → ${q(r.instruction ?? (r.change_summary as unknown[] | undefined)?.join("; "))}`,
          );
        }
      });
    }
  }
  return lines.join("\n");
}

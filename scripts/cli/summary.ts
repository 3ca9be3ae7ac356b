/**
 * The end-of-run summary printed by the CLI: baseline → best selection, the three test scores, and
 * calls and tokens per stage.
 */
import { bestSentence, type BestMeasuredBy } from "../../lib/contracts/best";
import type { BackendStats } from "../../lib/engine/ports";

type Stats = { calls: number; prompt_tokens: number; completion_tokens: number; total_tokens: number };

const fmt = (v: unknown) => (typeof v === "number" ? v.toFixed(3) : "n/a");

export function formatSummary(
  summary: Record<string, unknown>,
  opts: {
    outDir: string;
    simulated: boolean;
    backends?: Partial<Record<string, BackendStats>>;
    /** Where the best score was measured; "final_check" when the end-of-run check promoted the final skill. */
    bestMeasuredBy?: BestMeasuredBy;
    /** The gate metric of the run (hard, soft, mixed). */
    metric?: string;
  },
): string {
  const lines: string[] = [];
  lines.push("", "SkillOpt run complete" + (opts.simulated ? " — simulated model: scores are synthetic" : ""));
  lines.push(`  stop reason          ${String(summary.stop_reason ?? "completed")}`);
  lines.push(
    `  selection            ${fmt(summary.baseline_selection_hard)} (baseline) → ${fmt(summary.best_selection_hard)} (best)`,
  );
  const origin = typeof summary.best_origin === "string" ? summary.best_origin : null;
  const score = typeof summary.best_selection_hard === "number" ? summary.best_selection_hard : null;
  lines.push(
    `  ${bestSentence({ score, metric: opts.metric ?? "hard", origin, measuredBy: opts.bestMeasuredBy ?? null })}`,
  );
  if (typeof summary.final_selection_skip_reason === "string")
    lines.push(`  final skill          not compared with best: ${summary.final_selection_skip_reason}`);
  lines.push(
    `  test                 initial ${fmt(summary.baseline_test_hard)} · best ${fmt(summary.test_hard)} · final ${fmt(summary.final_test_hard)}`,
  );
  lines.push(
    `  steps                ${String(summary.total_steps)} (${String(summary.total_accepts)} accepted, ${String(summary.total_rejects)} rejected, ${String(summary.total_skips)} skipped` +
      (typeof summary.total_error_skips === "number"
        ? `, ${summary.total_error_skips} skipped: too many items not answered)`
        : ")"),
  );
  const tokens = (summary.token_summary ?? {}) as Record<string, Stats>;
  lines.push("  calls and tokens by stage:");
  for (const [stage, s] of Object.entries(tokens)) {
    if (stage === "_total") continue;
    lines.push(
      `    ${stage.padEnd(20)} ${String(s.calls).padStart(6)} calls ${String(s.prompt_tokens).padStart(10)} in ${String(s.completion_tokens).padStart(9)} out`,
    );
  }
  const t = tokens._total;
  if (t)
    lines.push(
      `    ${"total".padEnd(20)} ${String(t.calls).padStart(6)} calls ${String(t.prompt_tokens).padStart(10)} in ${String(t.completion_tokens).padStart(9)} out`,
    );
  for (const [role, b] of Object.entries(opts.backends ?? {})) {
    if (!b) continue;
    const t = b.total;
    const errors =
      Object.entries(t.errors)
        .map(([k, n]) => `${n} ${k}`)
        .join(", ") || "no errors";
    const cost = t.costUsd === null ? "cost unknown" : `$${t.costUsd.toFixed(4)}`;
    lines.push(
      `  ${role.padEnd(20)} ${b.backend} · ${b.model}: ${t.calls} calls, ${errors}, ${t.retries} retries, ${t.cacheHits} cache hits, ${cost}`,
    );
  }
  lines.push(`  best skill           ${opts.outDir}/best_skill.md`, "");
  return lines.join("\n");
}

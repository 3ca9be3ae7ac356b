/**
 * What the analyst reads about the final script: the per-cell `[POST-EXECUTION VERIFICATION]` report
 * (got vs expected, empty-correct cells collapsed into a count, formula cells without cached values
 * flagged; over 12 000 characters it keeps the first and last 6 000) and the one-line failure reason.
 */
import { caseFailureLine, type CaseResult } from "./evaluate";

const REPORT_CAP = 12_000;
const HALF = 6_000;

function caseLines(r: CaseResult): string[] {
  if (r.stage !== "done")
    return [`Case ${r.no}: ${r.stage === "exec" ? `${r.kind}` : "evaluation failed"} — ${r.message}`];
  const c = r.comparison;
  const lines = [`Case ${r.no}: ${r.ok ? "PASS" : "FAIL"} (${c.n_correct}/${c.n_cells} answer cells correct)`];
  for (const sheet of c.missing_sheets) lines.push(`  sheet '${sheet}' is missing`);
  let emptyOk = 0;
  for (const cell of c.cells) {
    if (cell.ok && cell.empty) {
      emptyOk += 1;
      continue;
    }
    lines.push(`  ${cell.ref}: got=${cell.got}, expected=${cell.expected} ${cell.ok ? "✓" : "✗"}`);
  }
  if (c.cells.length < c.n_cells) lines.push(`  … ${c.n_cells - c.cells.length} more cells not listed`);
  if (emptyOk > 0) lines.push(`  (${emptyOk} empty cells correctly left empty)`);
  if (c.formula_cells.length > 0) {
    lines.push(
      `  WARNING: formula cells without a cached value (openpyxl does not compute formulas): ${c.formula_cells.join(", ")}`,
    );
  }
  return lines;
}

/** The verification report for the final script on every case, capped at 12 000 characters. */
export function verificationReport(results: readonly CaseResult[]): string {
  const text = ["[POST-EXECUTION VERIFICATION]", ...results.flatMap(caseLines)].join("\n");
  if (text.length <= REPORT_CAP) return text;
  return `${text.slice(0, HALF)}\n… (${text.length - 2 * HALF} characters cut) …\n${text.slice(text.length - HALF)}`;
}

/**
 * The failure reason of a scored rollout (one line; undefined when every case passed):
 * `exec-error: case N: <exception line>`, `exec-timeout: …`, `output-not-found: …`, `eval-error: …`
 * or `eval-mismatch: P/N cases passed; case N: <first wrong cell>`. The analyst reads the first wrong
 * cell or the exception line: that is what a script's mistake looks like from outside.
 */
export function failureReason(results: readonly CaseResult[]): string | undefined {
  const failed = results.find((r) => !r.ok);
  if (!failed) return undefined;
  const passed = results.filter((r) => r.ok).length;
  const line = caseFailureLine(failed).replace(/\s+/g, " ").trim();
  if (failed.stage === "done")
    return `eval-mismatch: ${passed}/${results.length} cases passed; case ${failed.no}: ${line}`;
  if (failed.stage === "eval") return `eval-error: case ${failed.no}: ${line}`;
  const label =
    failed.kind === "error" ? "exec-error" : failed.kind === "timeout" ? "exec-timeout" : "output-not-found";
  return `${label}: case ${failed.no}: ${line}`;
}

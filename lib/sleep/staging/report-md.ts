/**
 * report.md, the page a person reads before adopting (spec D.8). Every piece of untrusted text (edits,
 * task ids, notes, skill names) is stripped of terminal controls, folded onto one line and escaped for
 * HTML and Markdown, so a transcript cannot inject markup or escape sequences into the review.
 */
import type { EditRecord, SleepReport } from "../types";

// Matches ANSI CSI/OSC sequences and lone ESC-prefixed controls.
// eslint-disable-next-line no-control-regex -- ANSI escapes start with ESC by definition
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-_])/g;

/** Terminal-safe single line: escape sequences removed, control and format characters turned into spaces. */
export function displayLine(value: unknown): string {
  return String(value)
    .replace(ANSI, "")
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function htmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "&#124;")
    .replace(/`/g, "&#96;");
}

/** Text for a table cell or inline code: one line, HTML-escaped (pipes too). */
export function cellText(value: unknown): string {
  return htmlEscape(displayLine(value));
}

/** Text for Markdown prose: Markdown markers backslash-escaped first, then HTML-escaped (so entities stay intact). */
export function proseText(value: unknown): string {
  return htmlEscape(displayLine(value).replace(/[\\*_[\]()#+!{}]/g, (c) => `\\${c}`));
}

function score(v: number | null | undefined): string {
  return typeof v === "number" && Number.isFinite(v) ? v.toFixed(3) : "—";
}

function editLine(e: EditRecord, withWhy: boolean): string {
  const head = `- \\[${proseText(e.target)}/${proseText(e.op)}\\] ${proseText(e.content)}`;
  return withWhy ? `${head}  \n  _why: ${proseText(e.rationale)}_` : head;
}

export interface ReportContext {
  backend: string;
  replayMode: string;
  gateOff: boolean;
}

function trialSection(report: SleepReport): string[] {
  if (report.gateTrials.length === 0) return [];
  const lines = [
    "## Held-out task changes",
    "_Observed score changes under the gate metric; they do not prove that a given edit caused a change._",
    "",
  ];
  for (const t of report.gateTrials) {
    const decision = `${t.accepted ? "accepted" : "rejected"}${t.blockedByRegression ? " (task regression)" : ""}`;
    lines.push(
      `### \`${cellText(t.target)}\` candidate — ${decision} (${score(t.baselineScore)} → ${score(t.candidateScore)})`,
      "",
    );
    lines.push("| Task | Tags | Baseline | Candidate | Change |", "|---|---|---:|---:|---|");
    for (const d of t.taskDeltas) {
      lines.push(
        `| \`${cellText(d.taskId)}\` | ${cellText(d.tags.join(", ") || "—")} | ${score(d.baselineScore)} | ${score(d.candidateScore)} | ${cellText(d.status)} |`,
      );
    }
    lines.push("");
  }
  return lines;
}

function groupSection(report: SleepReport): string[] {
  if (report.skillGroups.length === 0) return [];
  const lines = [
    "## Per-skill groups",
    "_Each row is one skill's own evidence and gate decision; a rejected group does not block the others._",
    "",
  ];
  lines.push("| Skill | Decision | Gate | Tasks | Held-out | Edits |", "|---|---|---|---|---|---|");
  for (const g of report.skillGroups) {
    const ran = g.status === "consolidated";
    const decision = ran ? (g.accepted ? "accepted" : "rejected") : g.status;
    const scores = ran
      ? `${score(g.baselineScore)} → ${score(g.candidateScore)}${g.gateAction === "reject_unverified" ? " (unvalidated)" : ""}`
      : "—";
    const edits = ran ? `${g.nAppliedEdits} applied / ${g.nRejectedEdits} rejected` : "—";
    const reason = g.reason ? ` — ${cellText(g.reason)}` : "";
    lines.push(
      `| \`${cellText(g.skillName || "(no name)")}\` | **${decision}**${reason} | ${cellText(g.gateAction || "—")} | ${g.nTasks} | ${scores} | ${edits} |`,
    );
  }
  lines.push("");
  return lines;
}

export function renderReportMd(report: SleepReport, ctx: ReportContext): string {
  const lines = [
    `# SkillOpt-Sleep — night ${report.night}`,
    "",
    `- project: \`${cellText(report.project)}\``,
    `- backend: \`${cellText(ctx.backend)}\`  replay: \`${cellText(ctx.replayMode)}\``,
    `- sessions harvested: ${report.nSessions}`,
    `- tasks mined: ${report.nTasks} (replayed: ${report.nReplayed})`,
    `- held-out score: ${score(report.baselineScore)} → ${score(report.candidateScore)}`,
    `- gate: **${proseText(report.gateAction)}** (accepted=${report.accepted})`,
    `- no-regression gate: ${report.gateNoRegression ? "on" : "off"}`,
    `- tokens used: ${report.tokensUsed}`,
    "",
  ];
  const leaked = report.holdoutLeaked && !ctx.gateOff;
  if (leaked) {
    lines.push(
      "> **Not validated.** The gate's validation tasks overlapped the tasks the optimizer learned from, so the comparison above cannot detect overfitting. Mine more tasks so that a separate validation set exists. The edits below are unverified suggestions, not rejections.",
      "",
    );
  }
  lines.push(...trialSection(report));
  if (report.edits.length > 0) lines.push("## Accepted edits", ...report.edits.map((e) => editLine(e, true)), "");
  if (report.rejectedEdits.length > 0) {
    lines.push(
      leaked ? "## Unverified suggestions (not validated — review before adopting)" : "## Rejected by the gate",
      ...report.rejectedEdits.map((e) => editLine(e, false)),
      "",
    );
  }
  if (report.unmatchedEdits.length > 0) {
    lines.push(
      "## Proposed but changed nothing (never reached the gate)",
      "_Anchor not found, replacement already present, duplicate or empty add, or an unknown op._",
    );
    for (const e of report.unmatchedEdits)
      lines.push(`${editLine(e, false)}${e.anchor ? `  \n  _anchor: \`${cellText(e.anchor)}\`_` : ""}`);
    lines.push("");
  }
  lines.push(...groupSection(report));
  if (report.notes.length > 0) lines.push("## Notes", ...report.notes.map((n) => `- ${proseText(n)}`), "");
  lines.push(
    "_Review the staged files, then adopt with `npm run skillopt -- sleep adopt` (`--skill NAME` / `--all-skills` for per-skill proposals, `--legacy` for the managed pair), or delete this folder._",
    "",
  );
  return lines.join("\n");
}

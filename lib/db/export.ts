/**
 * What the export buttons download: the exact bytes of best_skill.md, and a provenance bundle (best skill,
 * EDITS.md of accepted edits with step and gate delta, summary.json, the config). Read from RunArtifact
 * rows, which are written with the run's read model — never from the engine's resume store.
 */
import { strToU8, zipSync } from "fflate";
import { ARTIFACT } from "../contracts/artifacts";
import { GateReviewSchema } from "../contracts/events";
import { AppError } from "../errors";
import { getDb, type DbTx } from "./client";
import { getRun } from "./runs";

type Opts = { db?: DbTx };

/**
 * The best skill exactly as the engine chose it, from the export row written with the run's best (from
 * the baseline on); 409 before the baseline has produced one.
 */
export async function getBestSkill(runId: string, { db = getDb() }: Opts = {}): Promise<string> {
  await getRun(runId, { db });
  const row = await db.runArtifact.findUnique({
    where: { runId_name: { runId, name: ARTIFACT.bestSkill } },
    select: { content: true },
  });
  if (!row) {
    throw new AppError("CONFLICT", `run ${runId} has no best skill yet`, {
      userMessage: "There is no best skill yet: it exists once the baseline has been scored.",
    });
  }
  return row.content;
}

const fmt = (x: number | null | undefined) => (typeof x === "number" ? x.toFixed(4) : "n/a");

/** Human review at the gate: every reviewed step with its decision, author and note. */
function reviewSection(steps: Array<{ step: number; recordJson: string }>): string[] {
  const out: string[] = [];
  for (const s of steps) {
    const parsed = GateReviewSchema.safeParse((JSON.parse(s.recordJson) as { review?: unknown }).review);
    if (!parsed.success) continue;
    const r = parsed.data;
    const who = r.source === "timeout" ? "no reviewer answered in time (fallback)" : `by ${r.author || "anonymous"}`;
    const edited = r.edited_hash ? `, edited skill ${r.edited_hash}` : "";
    out.push(`- Step ${s.step}: **${r.decision}** ${who} — gate said ${r.automatic}, kept ${r.action}${edited}`);
    if (r.note) out.push(...r.note.split("\n").map((l) => `  > ${l}`));
  }
  return out.length > 0 ? ["", "# Human review at the gate", "", ...out] : [];
}

export async function buildEditsMarkdown(runId: string, { db = getDb() }: Opts = {}): Promise<string> {
  const steps = await db.step.findMany({ where: { runId }, orderBy: { step: "asc" } });
  const edits = await db.edit.findMany({
    where: { runId, stage: "selected" },
    orderBy: [{ step: "asc" }, { ord: "asc" }],
  });
  const lines = ["# Accepted edits", ""];
  let before: number | null =
    (await db.run.findUnique({ where: { id: runId }, select: { baselineScore: true } }))?.baselineScore ?? null;
  for (const s of steps) {
    const accepted = s.action.includes("accept");
    if (accepted) {
      const delta = s.candidateScore !== null && before !== null ? s.candidateScore - before : null;
      lines.push(
        `## Step ${s.step} (epoch ${s.epoch}) — ${s.action}, gate ${fmt(before)} → ${fmt(s.candidateScore)}${delta !== null ? ` (Δ ${delta >= 0 ? "+" : ""}${delta.toFixed(4)})` : ""}`,
        "",
      );
      for (const e of edits.filter((x) => x.step === s.step && (x.applyStatus ?? "applied").startsWith("applied"))) {
        lines.push(
          `- **${e.op}**${e.target ? ` after/at \`${e.target.replace(/`/g, "'").slice(0, 120)}\`` : ""} (${e.origin}${e.support ? `, support ${e.support}` : ""})`,
        );
        if (e.content) lines.push("", ...e.content.split("\n").map((l) => `  > ${l}`), "");
        if (e.rationale) lines.push(`  _Why:_ ${e.rationale}`, "");
      }
    }
    if (s.currentScore !== null) before = s.currentScore;
  }
  if (lines.length === 2) lines.push("No edit was accepted in this run.");
  lines.push(...reviewSection(steps));
  return `${lines.join("\n")}\n`;
}

/** `extra`: further files computed outside lib/db (BLAME.md, which needs the engine's blame). */
export async function buildBundle(
  runId: string,
  { db = getDb(), extra = {} }: Opts & { extra?: Record<string, string> } = {},
): Promise<Uint8Array> {
  const run = await getRun(runId, { db });
  const best = await getBestSkill(runId, { db });
  const summaryRow = await db.runArtifact.findUnique({
    where: { runId_name: { runId, name: ARTIFACT.summary } },
    select: { content: true },
  });
  const summary =
    summaryRow?.content ??
    JSON.stringify(
      { status: run.status, best_selection: run.bestScore, best_step: run.bestStep, note: "the run has not finished" },
      null,
      2,
    );
  return zipSync({
    [ARTIFACT.bestSkill]: strToU8(best),
    [ARTIFACT.edits]: strToU8(await buildEditsMarkdown(runId, { db })),
    [ARTIFACT.summary]: strToU8(summary),
    [ARTIFACT.config]: strToU8(run.sourceYaml),
    ...Object.fromEntries(Object.entries(extra).map(([name, text]) => [name, strToU8(text)])),
  });
}

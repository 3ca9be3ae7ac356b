/**
 * What the export buttons download: the exact bytes of best_skill.md, and a provenance bundle (best skill,
 * EDITS.md of accepted edits with step and gate delta, summary.json, the config).
 */
import { strToU8, zipSync } from "fflate";
import { AppError } from "../errors";
import { getDb, type DbTx } from "./client";
import { getRun } from "./runs";

type Opts = { db?: DbTx };

/** The best skill exactly as the engine wrote it; 409 before the baseline has produced one. */
export async function getBestSkill(runId: string, { db = getDb() }: Opts = {}): Promise<string> {
  await getRun(runId, { db });
  const cp = await db.checkpoint.findUnique({ where: { runId_key: { runId, key: "best_skill.md" } }, select: { value: true } });
  if (!cp) {
    throw new AppError("CONFLICT", `run ${runId} has no best skill yet`, {
      userMessage: "There is no best skill yet: it exists once the first step has been committed.",
    });
  }
  return cp.value;
}

const fmt = (x: number | null | undefined) => (typeof x === "number" ? x.toFixed(4) : "n/a");

export async function buildEditsMarkdown(runId: string, { db = getDb() }: Opts = {}): Promise<string> {
  const steps = await db.step.findMany({ where: { runId }, orderBy: { step: "asc" } });
  const edits = await db.edit.findMany({ where: { runId, stage: "selected" }, orderBy: [{ step: "asc" }, { ord: "asc" }] });
  const lines = ["# Accepted edits", ""];
  let before: number | null = (await db.run.findUnique({ where: { id: runId }, select: { baselineScore: true } }))?.baselineScore ?? null;
  for (const s of steps) {
    const accepted = s.action.includes("accept");
    if (accepted) {
      const delta = s.candidateScore !== null && before !== null ? s.candidateScore - before : null;
      lines.push(`## Step ${s.step} (epoch ${s.epoch}) — ${s.action}, gate ${fmt(before)} → ${fmt(s.candidateScore)}${delta !== null ? ` (Δ ${delta >= 0 ? "+" : ""}${delta.toFixed(4)})` : ""}`, "");
      for (const e of edits.filter((x) => x.step === s.step && (x.applyStatus ?? "applied").startsWith("applied"))) {
        lines.push(`- **${e.op}**${e.target ? ` after/at \`${e.target.replace(/`/g, "'").slice(0, 120)}\`` : ""} (${e.origin}${e.support ? `, support ${e.support}` : ""})`);
        if (e.content) lines.push("", ...e.content.split("\n").map((l) => `  > ${l}`), "");
        if (e.rationale) lines.push(`  _Why:_ ${e.rationale}`, "");
      }
    }
    if (s.currentScore !== null) before = s.currentScore;
  }
  if (lines.length === 2) lines.push("No edit was accepted in this run.");
  return `${lines.join("\n")}\n`;
}

export async function buildBundle(runId: string, { db = getDb() }: Opts = {}): Promise<Uint8Array> {
  const run = await getRun(runId, { db });
  const best = await getBestSkill(runId, { db });
  const summaryCp = await db.checkpoint.findUnique({ where: { runId_key: { runId, key: "summary.json" } }, select: { value: true } });
  const summary = summaryCp?.value ?? JSON.stringify({ status: run.status, best_selection: run.bestScore, best_step: run.bestStep, note: "the run has not finished" }, null, 2);
  return zipSync({
    "best_skill.md": strToU8(best),
    "EDITS.md": strToU8(await buildEditsMarkdown(runId, { db })),
    "summary.json": strToU8(summary),
    "config.yaml": strToU8(run.sourceYaml),
  });
}

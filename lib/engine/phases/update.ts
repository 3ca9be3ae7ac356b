/**
 * Update (spec §7.7): build the candidate skill from the selected items — deterministic edit
 * application in patch mode, an optimizer rewrite in rewrite mode, the first merged document in
 * full-rewrite mode. A null candidate means "skip_no_rewrite". Both rewrite modes keep the skill's
 * protected regions (slow-update field, appendix) exactly as they were, whatever the model returned.
 */
import type { RunContext } from "../context";
import { extractJson } from "../json-extract";
import { applyPatchWithReport } from "../patch";
import { rewriteSystemPrompt, rewriteUserPrompt } from "../prompts/epoch";
import { reattachProtected } from "../protected";
import type { EditReportRow, Patch } from "../types";
import { patchItems } from "./aggregate";

export interface UpdateResult {
  candidate: string | null;
  applyReport: EditReportRow[] | null;
  rewriteResult: Record<string, unknown> | null;
}

const finish = (text: string): string => `${text.replace(/\s+$/, "")}\n`;

export async function buildCandidate(
  ctx: RunContext,
  input: { stepDir: string; skill: string; ranked: Patch; stepBuffer: string },
): Promise<UpdateResult> {
  const mode = ctx.plan.updateMode;
  if (mode === "patch") {
    const edits = Array.isArray(input.ranked.edits) ? (input.ranked.edits as unknown[]) : [];
    const { skill, report } = applyPatchWithReport(input.skill, edits);
    return { candidate: skill, applyReport: report, rewriteResult: null };
  }
  if (mode === "rewrite_from_suggestions") {
    const rewrite = await rewriteFromSuggestions(ctx, input);
    if (!rewrite) return { candidate: null, applyReport: null, rewriteResult: null };
    await ctx.store.putJson(`${input.stepDir}/rewrite_result.json`, rewrite);
    return {
      candidate: reattachProtected(input.skill, String(rewrite.new_skill)),
      applyReport: null,
      rewriteResult: rewrite,
    };
  }
  const chosen = patchItems(input.ranked, mode).find(
    (c) => typeof c.new_skill === "string" && c.new_skill.trim() !== "",
  );
  if (!chosen) return { candidate: null, applyReport: null, rewriteResult: null };
  await ctx.store.putJson(`${input.stepDir}/full_rewrite_result.json`, {
    selected_candidate: chosen,
    merged_patch: input.ranked,
  });
  const rewriteResult = {
    reasoning: input.ranked.reasoning ?? "",
    change_summary: Array.isArray(chosen.change_summary) ? chosen.change_summary : [],
    title: chosen.title ?? "",
    source_type: chosen.source_type ?? "",
  };
  return { candidate: reattachProtected(input.skill, chosen.new_skill as string), applyReport: null, rewriteResult };
}

async function rewriteFromSuggestions(
  ctx: RunContext,
  input: { stepDir: string; skill: string; ranked: Patch; stepBuffer: string },
): Promise<Record<string, unknown> | null> {
  const suggestions = patchItems(input.ranked, "rewrite_from_suggestions");
  if (suggestions.length === 0) return null;
  const cfg = ctx.cfg.model;
  const effort = cfg.rewrite_reasoning_effort.trim() || cfg.reasoning_effort.trim() || null;
  const answer = await ctx.askOptimizer({
    key: `${input.stepDir}/calls/rewrite.json`,
    stage: "rewrite",
    system: rewriteSystemPrompt(),
    user: rewriteUserPrompt({ skill: input.skill, suggestions, stepBuffer: input.stepBuffer }),
    maxTokens: cfg.rewrite_max_completion_tokens,
    reasoningEffort: effort,
  });
  if (!answer.ok) return null;
  const parsed = extractJson(answer.text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  const obj = parsed as Record<string, unknown>;
  if (typeof obj.new_skill !== "string" || obj.new_skill.trim() === "") return null;
  return {
    ...obj,
    new_skill: finish(obj.new_skill),
    change_summary: Array.isArray(obj.change_summary) ? obj.change_summary : [],
  };
}

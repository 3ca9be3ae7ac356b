/**
 * Skill-aware appendix flush (spec §7.9): execution-lapse notes from the analysts go into the protected
 * appendix of the post-gate current skill, bypassing the gate by design; past a threshold the optimizer
 * compacts them.
 */
import type { RunContext } from "./context";
import { extractJson } from "./json-extract";
import { appendToAppendix, extractAppendixNotesFromResult, readAppendixNotes, rebuildAppendix } from "./protected";
import { consolidateSystemPrompt, consolidateUserPrompt } from "./prompts/epoch";
import type { AnalystResult } from "./types";

export interface FlushResult {
  skill: string;
  record: Record<string, number>;
}

export async function flushAppendix(
  ctx: RunContext,
  opts: { stepDir: string; skill: string; raw: readonly AnalystResult[] },
): Promise<FlushResult | null> {
  const notes = opts.raw.flatMap((r) => extractAppendixNotesFromResult(r));
  if (notes.length === 0) return null;
  const before = readAppendixNotes(opts.skill).length;
  let skill = appendToAppendix(opts.skill, notes);
  const after = readAppendixNotes(skill);
  const record: Record<string, number> = {
    n_execution_lapse_notes: notes.length,
    n_appendix_notes_added: after.length - before,
    n_appendix_notes_total: after.length,
  };
  await ctx.store.putJson(`${opts.stepDir}/appendix_notes.json`, { step_notes: notes, appendix_after: after });
  const threshold = ctx.cfg.optimizer.skill_aware_consolidate_threshold;
  if (threshold > 0 && after.length > threshold) {
    const compacted = await consolidateNotes(ctx, opts.stepDir, after);
    if (compacted.length > 0 && compacted.length < after.length) {
      skill = rebuildAppendix(skill, compacted);
      record.n_appendix_notes_consolidated = compacted.length;
      record.n_appendix_notes_total = compacted.length;
    }
  }
  return { skill, record };
}

/** Spec §14 call 11; any problem returns the notes unchanged. */
async function consolidateNotes(ctx: RunContext, stepDir: string, notes: string[]): Promise<string[]> {
  if (notes.length < 2) return notes;
  const answer = await ctx.askOptimizer({
    key: `${stepDir}/calls/appendix_consolidate.json`,
    stage: "appendix_consolidate",
    system: consolidateSystemPrompt(),
    user: consolidateUserPrompt(notes),
    maxTokens: 4096,
  });
  if (!answer.ok) return notes;
  const out = extractAppendixNotesFromResult(extractJson(answer.text));
  return out.length > 0 && out.length <= notes.length ? out : notes;
}

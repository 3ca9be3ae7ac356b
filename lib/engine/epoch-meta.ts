/**
 * The meta skill at the epoch boundary (spec §10): the optimizer's cross-epoch memory, written from the
 * longitudinal pairs of the epoch's last-step skill. Its inputs read nothing the slow update writes, so
 * its call is drafted while the slow update runs and committed after it, in the same state save.
 */
import { epochDir, type RunContext } from "./context";
import { parseGuidance, previousEpochSkill, savePairs, type BoundaryInput, type SharedPairs } from "./epoch-common";
import { formatComparison } from "./longitudinal";
import { metaSkillSystemPrompt, metaSkillUserPrompt } from "./prompts/epoch";
import type { TrainState } from "./state";

export interface MetaDraft {
  result: Record<string, unknown>;
  content: string | null;
}

/** Computes this epoch's meta-skill record (pairs and the optimizer call); changes no state. */
export async function draftMetaSkill(
  ctx: RunContext,
  st: TrainState,
  input: BoundaryInput,
  lastStepSkill: string,
  pairsOf: SharedPairs,
): Promise<MetaDraft> {
  const { epoch } = input;
  if (epoch === 1) return { result: { action: "skip_first_epoch", epoch: 1 }, content: null };
  const dir = epochDir("meta_skill", epoch);
  const started = ctx.clock.now();
  const [prevSkill, prevMeta, pairs] = await Promise.all([
    previousEpochSkill(ctx, st, epoch),
    readMetaContent(ctx, epoch - 1),
    pairsOf(),
  ]);
  if (!ctx.cfg.optimizer.use_slow_update) await savePairs(ctx, dir, pairs);
  const answer = await ctx.askOptimizer({
    key: `${dir}/calls/meta_skill.json`,
    stage: "meta_skill",
    system: metaSkillSystemPrompt(),
    user: metaSkillUserPrompt({
      prevSkill,
      currSkill: lastStepSkill,
      prevMeta,
      comparison: formatComparison(pairs.selected),
      nPairs: pairs.selected.length,
    }),
    maxTokens: 16384,
  });
  const g = answer.ok ? parseGuidance(answer.text, "meta_skill_content") : null;
  const timeS = Math.round((ctx.clock.now() - started) / 100) / 10;
  return {
    content: g?.content ?? null,
    result: g
      ? { reasoning: g.reasoning, meta_skill_content: g.content, time_s: timeS, action: "write_meta_skill", epoch }
      : { action: "no_content", time_s: timeS, epoch },
  };
}

/** Writes the drafted record and marks the epoch's meta skill done (the caller saves the state). */
export async function commitMetaSkill(ctx: RunContext, st: TrainState, epoch: number, d: MetaDraft): Promise<void> {
  await ctx.store.putJson(`${epochDir("meta_skill", epoch)}/meta_skill_result.json`, d.result);
  st.metaDoneEpoch = epoch;
  await ctx.emit({ type: "metaSkillUpdated", epoch, action: String(d.result.action), content: d.content });
}

/** The meta-skill content written at the end of `epoch` ("" when none). */
export async function readMetaContent(ctx: RunContext, epoch: number): Promise<string> {
  if (epoch < 1) return "";
  const r = await ctx.store.getJson<Record<string, unknown>>(`${epochDir("meta_skill", epoch)}/meta_skill_result.json`);
  return typeof r?.meta_skill_content === "string" ? r.meta_skill_content : "";
}

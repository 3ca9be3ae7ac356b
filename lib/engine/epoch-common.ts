/**
 * Pieces the two parts of the epoch boundary (slow update and meta skill) share: the previous epoch's
 * skill, the longitudinal pairs (rolled out once, read by both), their files and the guidance parser.
 */
import { epochDir, skillKey, type RunContext } from "./context";
import { extractJson } from "./json-extract";
import { longitudinalPairs, slim, type PairsResult } from "./longitudinal";
import type { TrainState } from "./state";
import type { Item } from "./types";

export interface BoundaryInput {
  epoch: number;
  /** The global step that ended this epoch. */
  lastStep: number;
  train: Item[];
  selectionItems: Item[];
}

/** The epoch's longitudinal pairs, computed on first use and shared by the slow update and the meta skill. */
export type SharedPairs = () => Promise<PairsResult>;

/** The post-boundary skill snapshot of the previous epoch (it includes that epoch's guidance). */
export async function previousEpochSkill(ctx: RunContext, st: TrainState, epoch: number): Promise<string> {
  const steps = st.history.filter((h) => h.epoch === epoch - 1).map((h) => h.step);
  const last = steps.length > 0 ? Math.max(...steps) : (epoch - 1) * ctx.plan.stepsPerEpoch;
  return (await ctx.store.getText(skillKey(last))) ?? "";
}

/**
 * The pairs of the previous epoch's skill against `lastStepSkill` (the skill of the epoch's last step).
 * With the slow update on, its folder holds the rollouts (the meta skill reuses them); otherwise the meta
 * skill's folder does. One promise, so concurrent readers never roll the same items out twice.
 */
export function sharedPairs(ctx: RunContext, st: TrainState, input: BoundaryInput, lastStepSkill: string): SharedPairs {
  let pending: Promise<PairsResult> | null = null;
  const dirBase = epochDir(ctx.cfg.optimizer.use_slow_update ? "slow_update" : "meta_skill", input.epoch);
  return () =>
    (pending ??= previousEpochSkill(ctx, st, input.epoch).then((prevSkill) =>
      longitudinalPairs(ctx, { epoch: input.epoch, prevSkill, currSkill: lastStepSkill, dirBase, train: input.train }),
    ));
}

export async function savePairs(ctx: RunContext, dir: string, r: PairsResult): Promise<void> {
  await ctx.store.putJson(`${dir}/comparison_pairs.json`, slim(r.selected));
  if (r.changed) await ctx.store.putJson(`${dir}/comparison_pairs_all.json`, slim(r.all));
}

/** Parses `{reasoning, <field>}` answers of the slow-update and meta calls; null without content. */
export function parseGuidance(text: string, field: string): { reasoning: string; content: string } | null {
  const parsed = extractJson(text) as Record<string, unknown> | null;
  const content = parsed && typeof parsed === "object" ? parsed[field] : undefined;
  if (typeof content !== "string" || !content.trim()) return null;
  return { reasoning: String(parsed!.reasoning ?? "").trim(), content: content.trim() };
}

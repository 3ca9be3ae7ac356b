/**
 * Aggregate (spec §7.5): hierarchical, failure-first merge of the analysts' patches. Each level merges
 * consecutive chunks concurrently; an invalid merge answer falls back to concatenation, an invalid final
 * merge to "failure first, then success". Fallbacks are counted, never fatal.
 */
import { analystMaxTokens, type RunContext } from "../context";
import { extractJson } from "../json-extract";
import { payloadKey } from "../prompts/common";
import {
  finalMergeSystemPrompt,
  finalMergeUserPrompt,
  levelMergeSystemPrompt,
  levelMergeUserPrompt,
} from "../prompts/merge";
import type { Patch, UpdateItem, UpdateMode } from "../types";
import { mapPool } from "../usage";

export interface MergeInput {
  stepDir: string;
  skill: string;
  failure: Patch[];
  success: Patch[];
  metaBlock: string;
}

export interface MergeOutput {
  merged: Patch;
  fallbacks: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function patchItems(patch: Patch | undefined, mode: UpdateMode): UpdateItem[] {
  const items = patch?.[payloadKey(mode)];
  return Array.isArray(items) ? (items.filter(isObject) as UpdateItem[]) : [];
}

/** A merge answer is valid when its payload is a list of objects only. */
function validMerge(text: string, mode: UpdateMode): Patch | null {
  const parsed = extractJson(text);
  if (!isObject(parsed)) return null;
  const items = parsed[payloadKey(mode)];
  if (!Array.isArray(items) || !items.every(isObject)) return null;
  return parsed as Patch;
}

export async function mergePatches(ctx: RunContext, input: MergeInput): Promise<MergeOutput> {
  const mode = ctx.plan.updateMode;
  const key = payloadKey(mode);
  const counter = { fallbacks: 0 };
  const [F, S] = [
    await hierMerge(ctx, input, "failure", input.failure, counter),
    await hierMerge(ctx, input, "success", input.success, counter),
  ];
  const f = patchItems(F, mode);
  const s = patchItems(S, mode);
  if (f.length === 0 && s.length === 0)
    return { merged: { reasoning: "no updates from either group", [key]: [] }, ...counter };
  if (s.length === 0) return { merged: F, ...counter };
  if (f.length === 0) return { merged: S, ...counter };
  const answer = await ctx.askOptimizer({
    key: `${input.stepDir}/calls/merge_final.json`,
    stage: "merge",
    system: finalMergeSystemPrompt(mode),
    user: finalMergeUserPrompt({
      mode,
      skill: input.skill,
      failure: F,
      success: S,
      nFailure: f.length,
      nSuccess: s.length,
      metaBlock: input.metaBlock,
    }),
    maxTokens: analystMaxTokens(mode),
  });
  const merged = answer.ok ? validMerge(answer.text, mode) : null;
  if (merged) return { merged, ...counter };
  counter.fallbacks += 1;
  ctx.log.warn("final merge answer unusable; falling back to failure-first concatenation");
  return { merged: { reasoning: "fallback: failure first, then success", [key]: [...f, ...s] }, ...counter };
}

async function hierMerge(
  ctx: RunContext,
  input: MergeInput,
  kind: "failure" | "success",
  patches: Patch[],
  counter: { fallbacks: number },
): Promise<Patch> {
  const mode = ctx.plan.updateMode;
  const key = payloadKey(mode);
  if (patches.length === 0) return { reasoning: "no patches", [key]: [] };
  if (patches.length === 1) return patches[0]!;
  const size = Math.max(2, ctx.cfg.gradient.merge_batch_size);
  let level = 0;
  let cur = patches;
  while (cur.length > 1) {
    level += 1;
    const chunks: Patch[][] = [];
    for (let i = 0; i < cur.length; i += size) chunks.push(cur.slice(i, i + size));
    const lvl = level;
    cur = await mapPool(chunks, ctx.cfg.gradient.analyst_workers, async (chunk, ci) =>
      chunk.length === 1 ? chunk[0]! : mergeChunk(ctx, input, { kind, chunk, level: lvl, index: ci, counter }),
    );
  }
  return cur[0]!;
}

async function mergeChunk(
  ctx: RunContext,
  input: MergeInput,
  opts: { kind: "failure" | "success"; chunk: Patch[]; level: number; index: number; counter: { fallbacks: number } },
): Promise<Patch> {
  const mode = ctx.plan.updateMode;
  const key = payloadKey(mode);
  ctx.checkAbort();
  const answer = await ctx.askOptimizer({
    key: `${input.stepDir}/calls/merge_${opts.kind}_L${opts.level}_C${opts.index}.json`,
    stage: "merge",
    system: levelMergeSystemPrompt(opts.kind, mode),
    user: levelMergeUserPrompt({
      skill: input.skill,
      patches: opts.chunk,
      level: opts.level,
      metaBlock: input.metaBlock,
    }),
    maxTokens: analystMaxTokens(mode),
  });
  const merged = answer.ok ? validMerge(answer.text, mode) : null;
  if (merged) {
    const items = (merged[key] as UpdateItem[]).map((it) => ({ ...it, merge_level: opts.level }));
    return { ...merged, [key]: items };
  }
  opts.counter.fallbacks += 1;
  // The warning never carries the provider's error text (it may echo request bodies or credentials).
  ctx.log.warn(`merge level ${opts.level} (${opts.kind}) answer unusable; concatenating ${opts.chunk.length} patches`);
  const items = opts.chunk.flatMap((p) =>
    patchItems(p, mode).map((it) => ({ ...it, merge_level: it.merge_level ?? opts.level })),
  );
  return { reasoning: "fallback concatenation", [key]: items };
}

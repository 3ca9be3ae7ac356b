/**
 * Aggregate (spec §7.5): hierarchical, failure-first merge of the analysts' patches (a dataflow tree, see
 * merge-tree.ts), recording which proposed edits each merged item combines; an invalid merge answer falls back to concatenation, an invalid final
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
import { mergeTree, unionFrom, type TrackedPatch } from "./merge-tree";

export interface MergeInput {
  stepDir: string;
  skill: string;
  failure: Patch[];
  success: Patch[];
  metaBlock: string;
}

export interface MergeOutput {
  merged: Patch;
  /**
   * Merge provenance, per merged item: sorted indices of the proposed edits (failure patches' items first,
   * then success patches', as the step's `patchesProposed` lists them) that the merge calls combined into it.
   */
  from: number[][];
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

/** Leaves of the merge: each analyst patch, its items numbered in the step's proposed-edit order from `first`. */
function track(patches: readonly Patch[], mode: UpdateMode, first: number): TrackedPatch[] {
  let next = first;
  return patches.map((patch) => ({ patch, from: patchItems(patch, mode).map(() => [next++]) }));
}

export async function mergePatches(ctx: RunContext, input: MergeInput): Promise<MergeOutput> {
  const mode = ctx.plan.updateMode;
  const key = payloadKey(mode);
  const counter = { fallbacks: 0 };
  const failures = track(input.failure, mode, 0);
  const successes = track(
    input.success,
    mode,
    failures.reduce((n, p) => n + p.from.length, 0),
  );
  const [F, S] = [
    await hierMerge(ctx, input, "failure", failures, counter),
    await hierMerge(ctx, input, "success", successes, counter),
  ];
  const f = patchItems(F.patch, mode);
  const s = patchItems(S.patch, mode);
  if (f.length === 0 && s.length === 0)
    return { merged: { reasoning: "no updates from either group", [key]: [] }, from: [], ...counter };
  if (s.length === 0) return { merged: F.patch, from: F.from, ...counter };
  if (f.length === 0) return { merged: S.patch, from: S.from, ...counter };
  const answer = await ctx.askOptimizer({
    key: `${input.stepDir}/calls/merge_final.json`,
    stage: "merge",
    system: finalMergeSystemPrompt(mode),
    user: finalMergeUserPrompt({
      mode,
      skill: input.skill,
      failure: F.patch,
      success: S.patch,
      nFailure: f.length,
      nSuccess: s.length,
      metaBlock: input.metaBlock,
    }),
    maxTokens: analystMaxTokens(mode),
  });
  const merged = answer.ok ? validMerge(answer.text, mode) : null;
  if (merged) {
    const all = unionFrom([F, S]);
    return { merged, from: patchItems(merged, mode).map(() => all), ...counter };
  }
  counter.fallbacks += 1;
  ctx.log.warn("final merge answer unusable; falling back to failure-first concatenation");
  return {
    merged: { reasoning: "fallback: failure first, then success", [key]: [...f, ...s] },
    from: [...F.from, ...S.from],
    ...counter,
  };
}

async function hierMerge(
  ctx: RunContext,
  input: MergeInput,
  kind: "failure" | "success",
  patches: TrackedPatch[],
  counter: { fallbacks: number },
): Promise<TrackedPatch> {
  const key = payloadKey(ctx.plan.updateMode);
  if (patches.length === 0) return { patch: { reasoning: "no patches", [key]: [] }, from: [] };
  if (patches.length === 1) return patches[0]!;
  const size = Math.max(2, ctx.cfg.gradient.merge_batch_size);
  return mergeTree(patches, size, ctx.cfg.gradient.analyst_workers, (chunk, level, index) =>
    mergeChunk(ctx, input, { kind, chunk, level, index, counter }),
  );
}

async function mergeChunk(
  ctx: RunContext,
  input: MergeInput,
  opts: {
    kind: "failure" | "success";
    chunk: TrackedPatch[];
    level: number;
    index: number;
    counter: { fallbacks: number };
  },
): Promise<TrackedPatch> {
  const mode = ctx.plan.updateMode;
  const key = payloadKey(mode);
  ctx.checkAbort();
  const answer = await ctx.askOptimizer({
    key: `${input.stepDir}/calls/merge_${opts.kind}_L${opts.level}_C${opts.index}.json`,
    stage: "merge",
    system: levelMergeSystemPrompt(opts.kind, mode),
    user: levelMergeUserPrompt({
      skill: input.skill,
      patches: opts.chunk.map((c) => c.patch),
      level: opts.level,
      metaBlock: input.metaBlock,
    }),
    maxTokens: analystMaxTokens(mode),
  });
  const merged = answer.ok ? validMerge(answer.text, mode) : null;
  if (merged) {
    const items = (merged[key] as UpdateItem[]).map((it) => ({ ...it, merge_level: opts.level }));
    const all = unionFrom(opts.chunk);
    return { patch: { ...merged, [key]: items }, from: items.map(() => all) };
  }
  opts.counter.fallbacks += 1;
  // The warning never carries the provider's error text (it may echo request bodies or credentials).
  ctx.log.warn(`merge level ${opts.level} (${opts.kind}) answer unusable; concatenating ${opts.chunk.length} patches`);
  const items = opts.chunk.flatMap((c) =>
    patchItems(c.patch, mode).map((it) => ({ ...it, merge_level: it.merge_level ?? opts.level })),
  );
  return { patch: { reasoning: "fallback concatenation", [key]: items }, from: opts.chunk.flatMap((c) => c.from) };
}

/**
 * Reflect (spec §7.2–§7.3): failure and success analysts read minibatches of trajectories and propose
 * bounded updates. Results are kept in minibatch-index order (failures first), not completion order, so
 * identical answers always give identical runs (a deliberate deviation).
 */
import { analystMaxTokens, pad, type RunContext } from "../context";
import { extractJson } from "../json-extract";
import { extractAppendixNotesFromResult } from "../protected";
import { analystSystemPrompt, analystUserPrompt } from "../prompts/analyst";
import { payloadKey } from "../prompts/common";
import { PyRandom } from "../py-random";
import { isFailure, isSuccess } from "../scoring";
import { formatTrajectories } from "../trajectory-format";
import type { AnalystResult, Patch, Trajectory, UpdateMode } from "../types";
import { mapPool } from "../usage";

export interface ReflectInput {
  /** Step (or accumulation batch) folder in the store. */
  dir: string;
  results: readonly Trajectory[];
  skill: string;
  seed: number;
  stepBuffer: string;
  metaBlock: string;
}

export interface ReflectOutput {
  raw: AnalystResult[];
  /** For each of `raw`, the analyst minibatch it read (kind, index and item ids). */
  sources: { kind: "failure" | "success"; minibatch: number; itemIds: string[] }[];
  /** Analyst answers that could not be used (unparseable, missing `patch`, call failed). */
  nInvalid: number;
}

type Group = { kind: "failure" | "success"; index: number; rows: Trajectory[] };

function chunk<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function reflect(ctx: RunContext, input: ReflectInput): Promise<ReflectOutput> {
  const { cfg } = ctx;
  // Errors and timeouts say nothing about the skill: analysts only read answered items.
  const answered = input.results.filter((r) => r.status === "ok");
  const failures = answered.filter((r) => isFailure(r.hard));
  const successes = cfg.gradient.failure_only ? [] : answered.filter((r) => isSuccess(r.hard));
  new PyRandom(input.seed).shuffle(failures);
  new PyRandom(input.seed + 1).shuffle(successes);
  const m = cfg.gradient.minibatch_size;
  const groups: Group[] = [
    ...chunk(failures, m).map((rows, index) => ({ kind: "failure" as const, index, rows })),
    ...chunk(successes, m).map((rows, index) => ({ kind: "success" as const, index, rows })),
  ];
  const outcomes = await mapPool(groups, cfg.gradient.analyst_workers, (g) => runAnalyst(ctx, input, g));
  const raw: AnalystResult[] = [];
  const sources: ReflectOutput["sources"] = [];
  let nInvalid = 0;
  outcomes.forEach((o, i) => {
    const g = groups[i]!;
    if (o.result) {
      raw.push(o.result);
      sources.push({ kind: g.kind, minibatch: g.index, itemIds: g.rows.map((r) => r.id) });
    } else if (o.called) nInvalid += 1;
  });
  return { raw, sources, nInvalid };
}

async function runAnalyst(
  ctx: RunContext,
  input: ReflectInput,
  g: Group,
): Promise<{ result: AnalystResult | null; called: boolean }> {
  const { cfg, plan } = ctx;
  const tag = `minibatch_${g.kind === "failure" ? "fail" : "succ"}_${pad(g.index, 3)}`;
  const trajectories = formatTrajectories(g.rows, cfg.gradient.reflect_mode);
  if (!trajectories.trim()) return { result: null, called: false };
  const skillAware = cfg.optimizer.use_skill_aware_reflection;
  const answer = await ctx.askOptimizer({
    key: `${input.dir}/calls/${tag}.json`,
    stage: "analyst",
    system: analystSystemPrompt({
      kind: g.kind,
      mode: plan.updateMode,
      taxonomy: ctx.env.failureTaxonomy(),
      brief: ctx.env.analystBrief?.(),
      skillAware,
      appendixSource: cfg.optimizer.skill_aware_appendix_source,
    }),
    user: analystUserPrompt({
      kind: g.kind,
      mode: plan.updateMode,
      skill: input.skill,
      budget: cfg.optimizer.learning_rate,
      stepBuffer: input.stepBuffer,
      metaBlock: input.metaBlock,
      trajectories,
      total: g.rows.length,
    }),
    maxTokens: analystMaxTokens(plan.updateMode),
  });
  const result = answer.ok
    ? parseAnalystResult(answer.text, {
        kind: g.kind,
        mode: plan.updateMode,
        budget: cfg.optimizer.learning_rate,
        skillAware: skillAware && plan.updateMode !== "full_rewrite_minibatch",
      })
    : null;
  if (result) await ctx.store.putJson(`${input.dir}/patches/${tag}.json`, result);
  return { result, called: true };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Validates an analyst answer (spec §7.2); null when it cannot be used. */
export function parseAnalystResult(
  text: string,
  opts: { kind: "failure" | "success"; mode: UpdateMode; budget: number; skillAware: boolean },
): AnalystResult | null {
  const parsed = extractJson(text);
  if (!isObject(parsed) || Object.keys(parsed).length === 0) return null;
  const notes = opts.skillAware ? extractAppendixNotesFromResult(parsed) : [];
  if (!("patch" in parsed)) {
    if (opts.kind === "failure" && notes.length > 0) {
      return {
        source_type: "failure",
        patch: { reasoning: "execution-lapse only", edits: [] },
        appendix_notes: notes,
      };
    }
    return null;
  }
  const result = { ...parsed, source_type: opts.kind } as AnalystResult;
  const key = payloadKey(opts.mode);
  if (opts.mode !== "full_rewrite_minibatch" && isObject(result.patch) && Array.isArray(result.patch[key])) {
    result.patch = { ...result.patch, [key]: (result.patch[key] as unknown[]).slice(0, opts.budget) };
  }
  if (opts.skillAware) result.appendix_notes = notes;
  return result;
}

/** Spec §7.3: split raw analyst results into failure and success patches with defaults filled in. */
export function normalisePatches(raw: readonly unknown[], mode: UpdateMode): { failure: Patch[]; success: Patch[] } {
  const failure: Patch[] = [];
  const success: Patch[] = [];
  const key = payloadKey(mode);
  for (const p of raw) {
    if (!isObject(p)) continue;
    const inner = "patch" in p ? p.patch : p;
    if (!isObject(inner)) continue;
    const items = Array.isArray(inner[key]) ? (inner[key] as unknown[]) : [];
    if (items.length === 0) continue;
    const reported = Number.parseInt(String(p.batch_size ?? 0), 10);
    const support = Math.max(Number.isFinite(reported) ? reported : 0, 1);
    const sourceType = typeof p.source_type === "string" && p.source_type ? p.source_type : "failure";
    // Python setdefault: a key that is present stays as it is, even when its value is null.
    const filled = items.map((item) =>
      isObject(item)
        ? {
            ...item,
            source_type: "source_type" in item ? item.source_type : sourceType,
            support_count: "support_count" in item ? item.support_count : support,
          }
        : item,
    );
    const patch = { ...inner, [key]: filled } as Patch;
    (p.source_type === "success" ? success : failure).push(patch);
  }
  return { failure, success };
}

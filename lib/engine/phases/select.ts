/**
 * Select / clip (spec §7.6, §8.2): the learning rate caps how many merged items one step applies. When
 * the pool exceeds the budget an optimizer call ranks it; otherwise the pool passes unchanged.
 */
import type { RunContext } from "../context";
import { extractJson } from "../json-extract";
import { listWithFloatMarks } from "../json-floats";
import { MODE_PAYLOAD, payloadKey } from "../prompts/common";
import { lrSystemPrompt, lrUserPrompt, rankingSystemPrompt, rankingUserPrompt } from "../prompts/select";
import { pyFloatStr, pyRepr, pyStrJson } from "../py-format";
import type { Scheduler } from "../schedule";
import type { Patch, UpdateItem, UpdateMode } from "../types";
import { patchItems } from "./aggregate";

/** Python-repr rendering of the values that appear in item descriptions. */
function reprValue(v: unknown): string {
  if (typeof v === "string") return pyRepr(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : pyFloatStr(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (v === null || v === undefined) return "None";
  if (Array.isArray(v)) return `[${v.map(reprValue).join(", ")}]`;
  return pyRepr(JSON.stringify(v));
}

const str = (v: unknown): string =>
  v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);

/** One line per item, parts separated by two spaces (spec §7.6 table). */
export function describeItem(item: UpdateItem, mode: UpdateMode): string {
  const parts: string[] = [];
  const opt = (name: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== "") parts.push(`${name}=${reprValue(v)}`);
  };
  if (mode === "patch") {
    parts.push(`op=${str(item.op)}`);
    opt("target", item.target);
    opt("content", item.content);
  } else if (mode === "rewrite_from_suggestions") {
    parts.push(`type=${reprValue(item.type ?? "")}`, `title=${reprValue(item.title ?? "")}`);
    parts.push(`instruction=${reprValue(item.instruction ?? "")}`);
    opt("priority", item.priority_hint);
  } else {
    parts.push(`title=${reprValue(item.title ?? "")}`, `change_summary=${reprValue(item.change_summary ?? [])}`);
    opt("source", item.source_type);
  }
  opt("support", item.support_count);
  if (mode === "full_rewrite_minibatch") parts.push(`new_skill_preview=${reprValue(str(item.new_skill))}`);
  return parts.join("  ");
}

export interface SelectResult {
  ranked: Patch;
  /** Per ranked item, the index of the merged item it is (merge provenance carried to the selected edits). */
  picked: number[];
  budget: number | null;
  rankingCalled: boolean;
  fallback: boolean;
  lrDecision?: Record<string, unknown>;
}

export interface SelectInput {
  stepDir: string;
  skill: string;
  merged: Patch;
  scheduler: Scheduler;
  evidence: { rolloutN: number; rolloutHard: number; rolloutSoft: number };
  stepBuffer: string;
  metaBlock: string;
}

const indicesOf = (p: Patch, mode: UpdateMode): number[] => patchItems(p, mode).map((_, i) => i);

export async function selectEdits(ctx: RunContext, input: SelectInput): Promise<SelectResult> {
  const mode = ctx.plan.updateMode;
  if (mode === "full_rewrite_minibatch")
    return {
      ranked: input.merged,
      picked: indicesOf(input.merged, mode),
      budget: null,
      rankingCalled: false,
      fallback: false,
    };
  let budget: number;
  let lrDecision: Record<string, unknown> | undefined;
  if (ctx.plan.lrControl === "autonomous") {
    lrDecision = await decideLearningRate(ctx, input);
    budget = lrDecision.learning_rate as number;
  } else {
    budget = input.scheduler.step();
  }
  const r = await rankAndSelect(ctx, { ...input, budget });
  return { ...r, budget, lrDecision };
}

async function rankAndSelect(
  ctx: RunContext,
  input: SelectInput & { budget: number },
): Promise<Omit<SelectResult, "budget" | "lrDecision">> {
  const mode = ctx.plan.updateMode;
  const key = payloadKey(mode);
  const items = patchItems(input.merged, mode);
  if (items.length <= input.budget)
    return { ranked: input.merged, picked: items.map((_, i) => i), rankingCalled: false, fallback: false };
  const label = MODE_PAYLOAD[mode].plural;
  const original = str(input.merged.reasoning);
  const answer = await ctx.askOptimizer({
    key: `${input.stepDir}/calls/ranking.json`,
    stage: "ranking",
    system: rankingSystemPrompt(mode),
    user: rankingUserPrompt({
      mode,
      skill: input.skill,
      poolLines: items.map((it, i) => `[${i}] ${describeItem(it, mode)}`),
      budget: input.budget,
      metaBlock: input.metaBlock,
    }),
    maxTokens: 16384,
  });
  const parsed = answer.ok ? extractJson(answer.text) : null;
  // `1.0` must stay a float (rejected), as json.loads keeps it, so the indices are read from a marked parse.
  const rawIndices = (parsed as { selected_indices?: unknown } | null)?.selected_indices;
  const indices = answer.ok ? listWithFloatMarks(answer.text, "selected_indices", rawIndices) : rawIndices;
  const selected = selectedIndices(parsed === null ? null : { selected_indices: indices }, items.length, input.budget);
  if (selected.length > 0) {
    return {
      ranked: {
        reasoning: `${original} [optimizer-ranked: selected ${selected.length}/${items.length} ${label}]`,
        [key]: selected.map((i) => items[i]!),
        ranking_details: parsed,
      },
      picked: selected,
      rankingCalled: true,
      fallback: false,
    };
  }
  ctx.log.warn(`ranking answer unusable; keeping the first ${input.budget} ${label}`);
  return {
    ranked: {
      reasoning: `${original} [fallback truncated ${items.length}->${input.budget} ${label}]`,
      [key]: items.slice(0, input.budget),
    },
    picked: items.slice(0, input.budget).map((_, i) => i),
    rankingCalled: true,
    fallback: true,
  };
}

/**
 * The original's reading of `selected_indices`: ints in range (a boolean is the int 0/1; a float, even
 * `1.0`, or a float-marked value is not), in the order given, without duplicates. The budget check runs
 * after every element, valid or not: budget 0 lets a valid first index through, an invalid one stops.
 */
export function selectedIndices(parsed: unknown, n: number, budget: number): number[] {
  const raw = (parsed as { selected_indices?: unknown } | null)?.selected_indices;
  if (!Array.isArray(raw)) return [];
  const out: number[] = [];
  for (const v of raw) {
    const idx = typeof v === "boolean" ? Number(v) : typeof v === "number" && Number.isInteger(v) ? v : -1;
    if (idx >= 0 && idx < n && !out.includes(idx)) out.push(idx);
    if (out.length >= budget) break;
  }
  return out;
}

/**
 * Spec §8.2 coercion of the model's `learning_rate`, as the original: an int (a boolean is refused), an
 * integral number, else the first integer in the Python `str()` of the value (`2.5` → 2, `[3]` → 3,
 * `{"v": 2}` → 2); negatives clamp to 0; null when there is no integer or the value is empty/falsy.
 */
export function coerceLearningRate(v: unknown): number | null {
  if (typeof v === "boolean") return null;
  if (typeof v === "number" && Number.isInteger(v)) return Math.max(0, v);
  // Python `str(value or "")`: None, "", [] and {} are falsy (0 was handled above).
  const empty =
    v === null ||
    v === undefined ||
    v === "" ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  const text = empty ? "" : pyStrJson(v).trim();
  if (text === "") return null;
  const m = /-?\d+/.exec(text);
  return m ? Math.max(0, Number.parseInt(m[0], 10)) : null;
}

async function decideLearningRate(ctx: RunContext, input: SelectInput): Promise<Record<string, unknown>> {
  const mode = ctx.plan.updateMode;
  const items = patchItems(input.merged, mode);
  const answer = await ctx.askOptimizer({
    key: `${input.stepDir}/calls/lr_autonomous.json`,
    stage: "lr_autonomous",
    system: lrSystemPrompt(),
    user: lrUserPrompt({
      mode,
      skill: input.skill,
      evidence: input.evidence,
      poolLines: items.map((it, i) => `[${i}] ${describeItem(it, mode)}`),
      stepBuffer: input.stepBuffer,
      metaBlock: input.metaBlock,
    }),
    maxTokens: 16384,
  });
  const parsed = answer.ok ? extractJson(answer.text) : null;
  const obj = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const decision = coerceLearningRate(obj.learning_rate);
  const raw = decision ?? 0;
  const chosen = Math.min(raw, items.length);
  const record: Record<string, unknown> = {
    learning_rate: chosen,
    raw_learning_rate: raw,
    available_update_items: items.length,
    clamped: chosen !== raw,
    fallback: decision === null,
    reasoning: "reasoning" in obj ? obj.reasoning : "",
    confidence: "confidence" in obj ? obj.confidence : "",
    risk_notes: "risk_notes" in obj ? obj.risk_notes : [],
    raw_response: answer.ok ? answer.text : null,
  };
  if (!answer.ok) record.error = "optimizer call failed";
  return record;
}

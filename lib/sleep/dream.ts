/**
 * Recall and dream (spec D.7): before consolidating, the train pool may be enlarged with archived past
 * tasks most similar to tonight's (recall) and with rephrased variants of tonight's real tasks (dream).
 * Both only ever add train tasks, so the val slice the gate scores is never polluted. With the defaults
 * (recall_k 0, dream_factor 0, dream_rollouts 1) this is plain `consolidate`.
 */
import { consolidate, type ConsolidateDeps, type ConsolidateOptions } from "./consolidate";
import type { ConsolidationResult, TaskRecord } from "./types";

const WRAPPERS = ["(quick one) {q}", "Please handle this request: {q}", "For the daily report: {q}"];

/** `factor` synthetic train variants of each real task (origin dream), rotating three phrasings. */
export function dreamAugment(real: readonly TaskRecord[], factor: number): TaskRecord[] {
  const out: TaskRecord[] = [];
  for (const t of real) {
    for (let k = 0; k < factor; k++) {
      out.push({
        ...t,
        id: `${t.id}_dream${k}`,
        intent: WRAPPERS[k % WRAPPERS.length]!.replace("{q}", t.intent),
        attemptedSolution: "",
        outcome: "unknown",
        judge: structuredClone(t.judge),
        tags: [...t.tags, "dream"],
        sourceSessions: [],
        split: "train",
        origin: "dream",
        derivedFrom: t.id,
      });
    }
  }
  return out;
}

function tokens(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2));
}

/**
 * The `k` archived tasks most similar (max Jaccard similarity of intent words) to any of tonight's tasks,
 * as train material with ids `recall:<id>`. Archived val/test tasks, tonight's own ids and `excludeIds`
 * (tonight's held-out ids and their sources) are never recalled; similarity must be above 0.
 */
export function recallSimilar(
  tonight: readonly TaskRecord[],
  history: readonly TaskRecord[],
  k: number,
  excludeIds: ReadonlySet<string> = new Set(),
): TaskRecord[] {
  if (history.length === 0 || k <= 0 || tonight.length === 0) return [];
  const blocked = new Set(excludeIds);
  for (const t of tonight) {
    blocked.add(t.id);
    if (t.derivedFrom) blocked.add(t.derivedFrom);
  }
  const newTokens = tonight.map((t) => tokens(t.intent));
  const scored: Array<{ sim: number; task: TaskRecord }> = [];
  for (const h of history) {
    if (blocked.has(h.id) || h.split === "val" || h.split === "test") continue;
    const ht = tokens(h.intent);
    if (ht.size === 0) continue;
    let sim = 0;
    for (const nt of newTokens) {
      const inter = [...ht].filter((w) => nt.has(w)).length;
      const union = new Set([...ht, ...nt]).size;
      sim = Math.max(sim, union ? inter / union : 0);
    }
    scored.push({ sim, task: h });
  }
  scored.sort((a, b) => b.sim - a.sim || (a.task.id < b.task.id ? -1 : a.task.id > b.task.id ? 1 : 0));
  return scored
    .slice(0, k)
    .filter((s) => s.sim > 0)
    .map(({ task: h }) => ({
      ...h,
      id: `recall:${h.id}`,
      judge: structuredClone(h.judge),
      tags: [...h.tags, "recall"],
      split: "train" as const,
      origin: "real" as const,
      derivedFrom: h.id,
    }));
}

export interface DreamOptions extends ConsolidateOptions {
  history: readonly TaskRecord[];
  recallK: number;
  dreamFactor: number;
}

export async function dreamConsolidate(
  deps: ConsolidateDeps,
  tasks: readonly TaskRecord[],
  skill: string,
  memory: string,
  o: DreamOptions,
): Promise<ConsolidationResult> {
  const train = tasks.filter((t) => t.split === "train");
  const pool = [...tasks];
  if (o.recallK > 0 && o.history.length > 0) {
    const heldOut = new Set(tasks.filter((t) => t.split === "val" || t.split === "test").map((t) => t.id));
    for (const t of tasks) if (t.derivedFrom) heldOut.add(t.derivedFrom);
    pool.push(...recallSimilar(train, o.history, o.recallK, heldOut));
  }
  if (o.dreamFactor > 0)
    pool.push(
      ...dreamAugment(
        pool.filter((t) => t.split === "train" && t.origin !== "dream"),
        o.dreamFactor,
      ),
    );
  return consolidate(deps, pool, skill, memory, o);
}

/**
 * The simulated analysts and mergers. A failure analyst infers the missing guidance from each failed
 * trajectory's characteristic wrong answer, proposes the rule as an edit (replacing a contradicting line
 * when there is one), and now and then adds an unhelpful edit so that the gate has something to reject.
 */
import type { SimKnowledge, SimRule } from "../../contracts/sim";
import { extractJsonArray } from "../../engine/json-extract";
import { analystKey, draw, normaliseAnswer, parseTrajectories, sectionBody, skillBlocks } from "./parse";
import { applyRule, editForRule, rulePresent, type SimEdit } from "./rules";

export type Mode = "patch" | "rewrite" | "full";
export const PAYLOAD: Record<Mode, string> = {
  patch: "edits",
  rewrite: "revise_suggestions",
  full: "skill_candidates",
};

export interface SimOptimizerOptions {
  knowledge: SimKnowledge | null;
  unhelpfulRate: number;
  seed: number;
}

/** Rules inferred from failed trajectories, most frequent first (ties in catalogue order). */
function inferRules(user: string, k: SimKnowledge): Array<{ rule: SimRule; count: number }> {
  const counts = new Map<string, number>();
  for (const t of parseTrajectories(user)) {
    const ann = k.byId.get(t.id);
    if (!ann || (t.prediction === null && t.failReason === null)) continue;
    const said = t.prediction === null ? null : normaliseAnswer(t.prediction);
    const reason = t.failReason === null ? "" : normaliseAnswer(t.failReason);
    // The characteristic wrong answer is the prediction itself (QA benchmarks) or, for agents and code
    // writers whose "answer" is an outcome, a distinctive phrase (≥ 12 chars) inside the failure reason.
    const id = ann.needs.find((r) => {
      const wrong = ann.wrong[r];
      if (wrong === undefined) return false;
      const w = normaliseAnswer(wrong);
      return w === said || (w.length >= 12 && reason.includes(w));
    });
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return k.rules
    .filter((r) => counts.has(r.id))
    .map((rule) => ({ rule, count: counts.get(rule.id)! }))
    .sort((a, b) => b.count - a.count);
}

function asItem(mode: Exclude<Mode, "full">, rule: SimRule, e: SimEdit, count: number): Record<string, unknown> {
  if (mode === "patch") return { ...e };
  return {
    type: e.op === "replace" ? "clarify" : "add_rule",
    title: rule.title,
    motivation: `${count} trajectories show "${rule.title}".`,
    instruction: `Add this rule: "${rule.guidance}"${e.op === "replace" ? ` and remove the contradicting line "${e.target}"` : ""}.`,
    priority_hint: count > 1 ? "high" : "medium",
  };
}

export function simAnalyst(
  kind: "failure" | "success",
  mode: Mode,
  system: string,
  user: string,
  o: SimOptimizerOptions,
): string {
  const skill = skillBlocks(user)[0] ?? "";
  const n = parseTrajectories(user).length;
  const budget = Number(/at most L=(\d+)/.exec(user)?.[1] ?? 4);
  const skillAware = system.includes("EXECUTION_LAPSE") || system.includes('"appendix_notes"');
  const k = o.knowledge;
  if (!k)
    return JSON.stringify({
      batch_size: n,
      patch: { reasoning: "no knowledge of this benchmark", [PAYLOAD[mode]]: [] },
    });
  if (kind === "success") return successAnswer(mode, skill, user, n, k, o);
  const inferred = inferRules(user, k);
  const chosen: Array<{ rule: SimRule; count: number }> = [];
  const notes: string[] = [];
  for (const x of inferred) {
    if (!rulePresent(x.rule, skill)) chosen.push(x);
    else if (skillAware) notes.push(`Follow the existing rule: ${x.rule.guidance}`);
  }
  // Memory from earlier epochs makes the simulated optimizer more careful.
  const rate = user.includes("## Optimizer Meta Skill") ? o.unhelpfulRate / 2 : o.unhelpfulRate;
  const harmful = k.rules.filter((r) => r.harmful && !rulePresent(r, skill));
  const key = analystKey(user);
  if (harmful.length > 0 && draw(o.seed, "unhelpful", key) < rate) {
    const rule = harmful[Math.floor(draw(o.seed, "which", key) * harmful.length)]!;
    const at = Math.floor(draw(o.seed, "where", key) * (Math.min(chosen.length, Math.max(budget - 1, 0)) + 1));
    chosen.splice(at, 0, { rule, count: 1 });
  }
  let payload: Record<string, unknown>[];
  if (mode === "full") {
    payload =
      chosen.length === 0
        ? []
        : [
            {
              title: "fix the observed failure patterns",
              change_summary: chosen.map((c) => `add: ${c.rule.guidance}`),
              new_skill: chosen.reduce((doc, c) => applyRule(c.rule, doc), skill),
            },
          ];
  } else {
    payload = chosen.slice(0, budget).map((c) => asItem(mode, c.rule, editForRule(c.rule, skill), c.count));
  }
  const out: Record<string, unknown> = {
    batch_size: n,
    failure_summary: inferred.map(({ rule, count }) => ({
      failure_type: rule.failure_type,
      count,
      description: rule.title,
    })),
    patch: {
      reasoning: inferred.length
        ? `Most failures trace back to: ${inferred.map((x) => x.rule.title).join("; ")}.`
        : "no systematic pattern",
      [PAYLOAD[mode]]: payload,
    },
  };
  if (skillAware && notes.length > 0) out.appendix_notes = notes;
  return JSON.stringify(out);
}

/** General advice that changes no simulated outcome: what a success analyst tends to reinforce. */
const NEUTRAL_ADVICE = [
  "Before answering, check that the answer is supported by the material you were given.",
  "Read the whole task once more before committing to the final answer.",
  "Prefer the evidence in the task over background knowledge when they differ.",
];

/** Half of the success minibatches propose one neutral reinforcement the skill does not have yet. */
function successAnswer(
  mode: Mode,
  skill: string,
  user: string,
  n: number,
  k: SimKnowledge,
  o: SimOptimizerOptions,
): string {
  const unused = NEUTRAL_ADVICE.filter(
    (a) =>
      !skill.includes(a) && !k.rules.some((r) => [...r.detect, ...r.conflicts].some((p) => new RegExp(p, "i").test(a))),
  );
  const items: Record<string, unknown>[] = [];
  const key = analystKey(user);
  if (unused.length > 0 && n > 0 && draw(o.seed, "success", key) < 0.5) {
    const advice = unused[Math.floor(draw(o.seed, "advice", key) * unused.length)]!;
    const e: SimEdit = {
      op: "append",
      content: `- ${advice}`,
      rationale: "Successful trajectories all did this; the skill never says it.",
    };
    if (mode === "patch") items.push({ ...e });
    else if (mode === "rewrite")
      items.push({
        type: "add_rule",
        title: "verify before answering",
        motivation: "successful trajectories",
        instruction: `Add this rule: "${advice}".`,
        priority_hint: "low",
      });
    else
      items.push({
        title: "reinforce what worked",
        change_summary: [`add: ${advice}`],
        new_skill: `${skill.trimEnd()}\n\n- ${advice}\n`,
      });
  }
  return JSON.stringify({
    batch_size: n,
    success_patterns: n > 0 ? ["answers followed the skill's existing rules"] : [],
    patch: {
      reasoning: items.length ? "one general habit is worth stating" : "the skill already covers what worked",
      [PAYLOAD[mode]]: items,
    },
  });
}

/** Items of the patches listed in a merge prompt, in order. */
function mergeInputs(user: string, mode: Mode, sectionTitle: string): Record<string, unknown>[] {
  const body = sectionBody(user, sectionTitle) ?? "";
  const arr = extractJsonArray(body.slice(body.indexOf("[")));
  const key = PAYLOAD[mode];
  return (arr ?? []).flatMap((p) => {
    const items = (p as Record<string, unknown> | null)?.[key];
    return Array.isArray(items) ? (items as Record<string, unknown>[]) : [];
  });
}

function identity(item: Record<string, unknown>, mode: Mode, rules: readonly SimRule[]): string {
  if (mode === "full") {
    const text = String(item.new_skill ?? "");
    return rules
      .filter((r) => rulePresent(r, text))
      .map((r) => r.id)
      .join(",");
  }
  return normaliseAnswer(String(mode === "patch" ? item.content : item.instruction));
}

/** Deduplicates items (summing support), keeps one item per target, failure items first. */
export function simMerge(mode: Mode, user: string, sectionTitle: string, k: SimKnowledge | null): string {
  const skill = skillBlocks(user)[0] ?? "";
  const rules = k?.rules ?? [];
  const inputs = mergeInputs(user, mode, sectionTitle);
  const merged: Record<string, unknown>[] = [];
  for (const item of inputs) {
    const key = identity(item, mode, rules);
    const same = merged.find((m) => identity(m, mode, rules) === key);
    const support = Number(item.support_count ?? 1) || 1;
    if (same) {
      same.support_count = Number(same.support_count ?? 1) + support;
      continue;
    }
    const clash =
      mode === "patch" &&
      item.target !== undefined &&
      merged.some((m) => m.target === item.target && m.op === "replace");
    merged.push(
      clash
        ? { ...item, op: "append", target: undefined, support_count: support }
        : { ...item, support_count: support },
    );
  }
  if (mode === "full" && merged.length > 1) {
    const wanted = rules.filter(
      (r) => merged.some((m) => rulePresent(r, String(m.new_skill ?? ""))) && !rulePresent(r, skill),
    );
    const doc = wanted.reduce((s, r) => applyRule(r, s), skill);
    const support = merged.reduce((s, m) => s + (Number(m.support_count) || 1), 0);
    return JSON.stringify({
      reasoning: "combined the fixes of all candidates",
      skill_candidates: [
        {
          title: "merged candidate",
          change_summary: wanted.map((r) => `add: ${r.guidance}`),
          new_skill: doc,
          support_count: support,
          source_type: "mixed",
        },
      ],
    });
  }
  return JSON.stringify({ reasoning: `merged ${inputs.length} items into ${merged.length}`, [PAYLOAD[mode]]: merged });
}

/**
 * The simulated optimizer's other calls: ranking, autonomous learning rate, rewrite, slow update, meta
 * skill and appendix consolidation — each answering in the JSON shape its prompt asks for.
 */
import type { SimKnowledge } from "../../contracts/sim";
import { extractJsonArray } from "../../engine/json-extract";
import { normaliseAnswer, sectionBody, skillBlocks } from "./parse";
import { applyRule, ruleMentioned, rulePresent } from "./rules";

function poolLines(user: string, title: string): Array<{ index: number; support: number }> {
  const body = sectionBody(user, title) ?? "";
  return body
    .split("\n")
    .map((l) => /^\[(\d+)\] (.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ index: Number(m[1]), support: Number(/(?:^| {2})support=(\d+)/.exec(m[2]!)?.[1] ?? 1) }));
}

/** Highest support first; ties keep pool order. */
export function simRanking(user: string): string {
  const heading = /^## (.* Pool) \(\d+ [^,]+, budget=(\d+)\)$/m.exec(user);
  const budget = Number(heading?.[2] ?? 1);
  const pool = poolLines(user, heading?.[1] ?? "Edits Pool");
  const ranked = [...pool].sort((a, b) => b.support - a.support || a.index - b.index).slice(0, budget);
  return JSON.stringify({ reasoning: "kept the best-supported updates", selected_indices: ranked.map((p) => p.index) });
}

/** Applies the updates that more than one minibatch asked for (at least one). */
export function simLearningRate(user: string): string {
  const pool = poolLines(user, "Proposed Update Items");
  const strong = pool.filter((p) => p.support >= 2).length;
  const n = pool.length === 0 ? 0 : Math.min(4, Math.max(1, strong));
  return JSON.stringify({
    learning_rate: n,
    reasoning: `${strong} of ${pool.length} items are backed by more than one minibatch`,
    confidence: strong > 0 ? "medium" : "low",
    risk_notes: pool.length > n ? ["some proposals rest on a single minibatch"] : [],
  });
}

export function simRewrite(user: string, k: SimKnowledge | null): string {
  const skill = skillBlocks(user)[0] ?? "";
  const body = sectionBody(user, "Selected Revise Suggestions") ?? "";
  const suggestions = (extractJsonArray(body.slice(body.indexOf("["))) ?? []) as Array<Record<string, unknown>>;
  const rules = suggestions
    .map((s) => (k ? ruleMentioned(k.rules, String(s.instruction ?? "")) : undefined))
    .filter((r) => r !== undefined);
  const doc = rules.reduce((d, r) => applyRule(r, d), skill);
  return JSON.stringify({
    reasoning: `folded ${rules.length} of ${suggestions.length} suggestions into the document`,
    change_summary: rules.map((r) => `added: ${r.guidance}`),
    new_skill: doc,
  });
}

/** Task ids listed under the comparison sections whose heading starts with one of `titles`. */
function comparisonIds(user: string, titles: string[]): string[] {
  const ids: string[] = [];
  let on = false;
  for (const line of user.split("\n")) {
    if (line.startsWith("### ")) on = titles.some((t) => line.startsWith(`### ${t}`));
    const m = on ? /^- Task (.+?): /.exec(line) : null;
    if (m) ids.push(m[1]!);
  }
  return ids;
}

/** Guidance for regressions and persistent failures whose rules the current skill lacks. */
export function simSlowUpdate(user: string, k: SimKnowledge | null): string {
  const current = skillBlocks(user)[1] ?? "";
  const previous = sectionBody(user, "Previous Epoch Guidance") ?? "";
  const kept = previous.split("\n").filter((l) => l.startsWith("- "));
  const ids = comparisonIds(user, ["Regressions", "Persistent failures"]);
  const improved = comparisonIds(user, ["Improvements"]);
  const lines = [...kept];
  const add = (line: string) => {
    if (!lines.includes(line)) lines.push(line);
  };
  const rulesOf = (id: string) =>
    (k?.byId.get(id)?.needs ?? []).map((rid) => k!.rules.find((r) => r.id === rid)).filter((r) => r !== undefined);
  // (1)+(2): rules still missing behind regressions and persistent failures; rules that exist but were
  // not followed get a reminder. (3): reinforce what the epoch fixed.
  for (const id of ids) {
    for (const rule of rulesOf(id))
      add(
        rulePresent(rule, current)
          ? `- Double-check every answer against this rule: ${rule.title}.`
          : `- ${rule.guidance}`,
      );
  }
  for (const id of improved)
    for (const rule of rulesOf(id)) add(`- Keep applying the rule that fixed recent failures: ${rule.title}.`);
  const content = lines.length > 0 ? `Epoch guidance:\n${lines.join("\n")}` : "";
  return JSON.stringify({
    reasoning: `${ids.length} tasks regressed or kept failing and ${improved.length} improved; ${lines.length - kept.length} new guidance lines`,
    slow_update_content: content,
  });
}

export function simMetaSkill(user: string, k: SimKnowledge | null): string {
  const improved = comparisonIds(user, ["Improvements"]).length;
  const regressed = comparisonIds(user, ["Regressions"]).length;
  const persistent = comparisonIds(user, ["Persistent failures"]).length;
  const types = [...new Set((k?.rules ?? []).filter((r) => !r.harmful).map((r) => r.failure_type))];
  const notes = [
    `- Edits that state one concrete, general rule fixed ${improved} tasks between epochs; prefer them.`,
    `- ${regressed} tasks regressed: reject edits that contradict existing rules, and replace a contradicting line instead of adding a second rule.`,
    `- ${persistent} tasks still fail: look for missing ${types.join(" / ") || "format"} rules before rephrasing existing ones.`,
  ];
  return JSON.stringify({ reasoning: "summarised the epoch comparison", meta_skill_content: notes.join("\n") });
}

export function simConsolidate(user: string): string {
  const body = sectionBody(user, "Current Execution Notes") ?? "";
  const notes = body
    .split("\n")
    .map((l) => l.replace(/^\d+\.\s*/, "").trim())
    .filter(Boolean);
  const seen = new Set<string>();
  const out = notes.filter((n) => {
    const key = normaliseAnswer(n).slice(0, 48);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return JSON.stringify({
    appendix_notes: out.length < notes.length ? out : out.slice(0, Math.max(1, out.length - 1)),
  });
}

/**
 * Hidden annotations of the built-in sample sets, read only by the simulated model ("sim").
 *
 * A benchmark's sample defines a small catalogue of *guidance rules*. Each sample item names the rules
 * it needs. The sim target answers an item correctly when the skill text in its prompt contains every
 * needed rule (a `detect` pattern matches and no `conflicts` pattern does); otherwise it gives the
 * item's characteristic wrong answer for the first missing rule. The sim optimizer infers the missing
 * rule from that characteristic wrong answer and proposes the rule's `guidance` as an edit.
 */
import { z } from "zod";

export const SimRuleSchema = z.object({
  /** Stable id, e.g. "short_span". */
  id: z.string().min(1),
  /** Short human label used in failure summaries, e.g. "answer is longer than the span". */
  title: z.string().min(1),
  /** The benchmark taxonomy category this failure belongs to, e.g. "answer_format". */
  failure_type: z.string().min(1),
  /** The rule text the sim optimizer writes into the skill (one markdown bullet, without "- "). */
  guidance: z.string().min(1),
  /** Case-insensitive regular expressions; the rule counts as present when any matches the skill. */
  detect: z.array(z.string().min(1)).min(1),
  /** Case-insensitive regular expressions of contradicting guidance; any match cancels the rule. */
  conflicts: z.array(z.string().min(1)).default([]),
  /** Markdown heading line of the section the rule belongs under, e.g. "## Answer format". */
  section: z.string().optional(),
  /**
   * A distractor: guidance that sounds useful but contradicts other rules. The sim optimizer sometimes
   * proposes it (so the gate visibly rejects steps); no item needs it.
   */
  harmful: z.boolean().default(false),
});
export type SimRule = z.output<typeof SimRuleSchema>;

export const SimItemAnnotationSchema = z.object({
  /** Rule ids the item needs, in the order the sim target checks them. Empty = always answerable. */
  needs: z.array(z.string()),
  /** What the sim target answers when guided (SearchQA: the gold span; LiveMath: the correct choice text). */
  correct: z.string(),
  /** Characteristic wrong answer per needed rule id, given when that rule is the first one missing. */
  wrong: z.record(z.string(), z.string()),
});
export type SimItemAnnotation = z.infer<typeof SimItemAnnotationSchema>;

/** What the sim target knows about one call, handed to a benchmark's own responder. */
export interface SimTargetCall {
  system: string;
  user: string;
  /** The skill section of the system prompt, wherever it sits ("" when none). */
  skill: string;
  /** The item recognised from the "## Question" section, when there is one. */
  item: { id: string; sim: SimItemAnnotation } | null;
  /** The first needed rule the skill lacks (null when guided or no item). */
  missingRule: SimRule | null;
  /** True when a guided answer should slip this time (seeded noise). */
  slip: boolean;
  /** A seeded number in [0, 1) for this exact prompt. */
  noise: number;
  knowledge: SimKnowledge;
}

/**
 * A benchmark's own simulated target (multi-turn agents, code writers, …): the answer text for a call,
 * or null to use the generic question-answering behaviour.
 */
export type SimResponder = (call: SimTargetCall) => string | null;

/** Everything the sim needs about one benchmark's sample. */
export interface SimKnowledge {
  rules: SimRule[];
  /** Item annotations by item id. */
  byId: Map<string, SimItemAnnotation>;
  /** Item annotations by normalised question text (see `normaliseQuestion`). */
  byQuestion: Map<string, { id: string; sim: SimItemAnnotation }>;
  respond?: SimResponder;
}

const patternCache = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let r = patternCache.get(source);
  if (!r) {
    r = new RegExp(source, "i");
    patternCache.set(source, r);
  }
  return r;
}

/** A rule counts when one of its patterns matches the skill and no contradicting pattern does. */
export function rulePresent(rule: SimRule, skill: string): boolean {
  return rule.detect.some((d) => pattern(d).test(skill)) && !rule.conflicts.some((c) => pattern(c).test(skill));
}

/** The first rule an item needs that the skill lacks, or null when the skill carries all of them. */
export function missingRuleOf(ann: SimItemAnnotation, skill: string, rules: readonly SimRule[]): SimRule | null {
  for (const id of ann.needs) {
    const rule = rules.find((r) => r.id === id);
    if (rule && !rulePresent(rule, skill)) return rule;
  }
  return null;
}

/** The key the sim uses to recognise an item from the "## Question" section of a target prompt. */
export function normaliseQuestion(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

export function buildSimKnowledge(
  rules: SimRule[],
  items: Array<{ id: string; question?: unknown; sim?: unknown }>,
  respond?: SimResponder,
): SimKnowledge {
  const byId = new Map<string, SimItemAnnotation>();
  const byQuestion = new Map<string, { id: string; sim: SimItemAnnotation }>();
  for (const item of items) {
    const parsed = SimItemAnnotationSchema.safeParse(item.sim);
    if (!parsed.success) continue;
    byId.set(String(item.id), parsed.data);
    if (typeof item.question === "string") {
      byQuestion.set(normaliseQuestion(item.question), { id: String(item.id), sim: parsed.data });
    }
  }
  return respond ? { rules, byId, byQuestion, respond } : { rules, byId, byQuestion };
}

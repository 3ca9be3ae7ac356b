/**
 * Consistency checks of a built-in sample and its sim rules, shared by the benchmarks' tests (and usable
 * by a data check command). Returns a list of problems; an empty list means the sample is sound.
 */
import { SimItemAnnotationSchema, type SimRule } from "../../contracts/sim";
import type { Item, Splits } from "../../engine/types";

/** Inputs of `checkSampleIntegrity`. */
export interface SampleIntegrityInput {
  rules: SimRule[];
  splits: Splits;
  /** The benchmark's seed skill. */
  initialSkill: string;
  /** The rollout system prompt without the skill section. */
  systemPrompt: string;
  /** Hard score of answering `item` with `answer` inside answer tags. */
  score(item: Item, answer: string): number;
  /** Minimum uses of every real rule per split (default 2). */
  minPerSplit?: number;
}

const matches = (patterns: readonly string[], text: string) => patterns.some((p) => new RegExp(p, "i").test(text));

/** The problems found, one line each. */
export function checkSampleIntegrity(input: SampleIntegrityInput): string[] {
  return [...checkRules(input), ...checkItems(input)];
}

function checkRules(input: SampleIntegrityInput): string[] {
  const problems: string[] = [];
  const real = input.rules.filter((r) => !r.harmful);
  const headings = new Set(input.initialSkill.split(/\r?\n/).map((l) => l.trim()));
  for (const rule of real) {
    if (!matches(rule.detect, rule.guidance)) problems.push(`rule ${rule.id}: guidance does not match its own detect`);
    if (matches(rule.detect, input.initialSkill))
      problems.push(`rule ${rule.id}: initial skill already matches detect`);
    if (matches(rule.detect, input.systemPrompt)) problems.push(`rule ${rule.id}: system prompt matches detect`);
    if (rule.section === undefined || !headings.has(rule.section)) {
      problems.push(`rule ${rule.id}: section '${rule.section ?? ""}' is not a heading of the initial skill`);
    }
    for (const other of real) {
      if (matches(other.conflicts, rule.guidance))
        problems.push(`rule ${rule.id}: guidance trips conflicts of ${other.id}`);
      if (other !== rule && matches(other.detect, rule.guidance))
        problems.push(`rule ${rule.id}: guidance also satisfies ${other.id}`);
    }
  }
  for (const rule of input.rules.filter((r) => r.harmful)) {
    if (!real.some((r) => matches(r.conflicts, rule.guidance))) {
      problems.push(`harmful rule ${rule.id}: guidance conflicts with no real rule`);
    }
    if (!matches(rule.detect, rule.guidance))
      problems.push(`harmful rule ${rule.id}: guidance does not match its own detect`);
    for (const other of real) {
      if (matches(other.detect, rule.guidance))
        problems.push(`harmful rule ${rule.id}: guidance satisfies ${other.id}`);
    }
  }
  return problems;
}

function checkItems(input: SampleIntegrityInput): string[] {
  const problems: string[] = [];
  const real = new Set(input.rules.filter((r) => !r.harmful).map((r) => r.id));
  const ids = new Set<string>();
  for (const [split, items] of Object.entries(input.splits) as Array<[string, Item[]]>) {
    const uses = new Map<string, number>();
    for (const item of items) {
      const where = `${split}/${item.id}`;
      if (ids.has(item.id)) problems.push(`${where}: duplicate id across splits`);
      ids.add(item.id);
      const parsed = SimItemAnnotationSchema.safeParse(item.sim);
      if (!parsed.success) {
        problems.push(`${where}: invalid sim annotation`);
        continue;
      }
      const sim = parsed.data;
      if (sim.needs.length > 2) problems.push(`${where}: needs more than two rules`);
      if (input.score(item, sim.correct) !== 1) problems.push(`${where}: correct answer does not score 1`);
      for (const need of sim.needs) {
        uses.set(need, (uses.get(need) ?? 0) + 1);
        if (!real.has(need)) problems.push(`${where}: needs unknown or harmful rule '${need}'`);
        const wrong = sim.wrong[need];
        if (wrong === undefined) problems.push(`${where}: no wrong answer for '${need}'`);
        else if (input.score(item, wrong) !== 0) problems.push(`${where}: wrong answer for '${need}' scores above 0`);
      }
      for (const key of Object.keys(sim.wrong)) {
        if (!sim.needs.includes(key)) problems.push(`${where}: wrong answer for '${key}' which it does not need`);
      }
    }
    for (const id of real) {
      const n = uses.get(id) ?? 0;
      if (n < (input.minPerSplit ?? 2)) problems.push(`${split}: rule ${id} is needed ${n} time(s)`);
    }
  }
  return problems;
}

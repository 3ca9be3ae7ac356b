/**
 * The offline sample is generated, not written by hand: for each split and task type the builder walks
 * seeds and keeps games whose needs it can prove by play — a rule is needed when the player with that
 * one flaw loses — and whose flawed plays end with a distinctive failure phrase. `sample.test.ts` checks
 * the committed items.json equals this output; `sample-write.ts` rewrites it.
 */
import { formatClauses, householdClauses, traceClauses, type Clause } from "./diagnose";
import { generateGame, type Game } from "./sim/generate";
import { Household } from "./sim/household";
import { playToEnd, type Flaw } from "./sim/policy";
import { TASK_TYPES, type TaskType } from "./sim/world";

/** Steps per episode in the sample preset (configs/alfworld/sample.yaml). */
export const SAMPLE_MAX_STEPS = 24;
/** The expert must finish well inside the step limit. */
const MAX_EXPERT_STEPS = 18;

/** The flaw a missing rule produces, and the diagnosis clause that betrays it. */
export const RULE_FLAWS: Record<string, { flaw: Flaw; clause: string }> = {
  open_receptacles: { flaw: "no_open", clause: "never_opened" },
  systematic_search: { flaw: "loop_search", clause: "revisits" },
  treat_before_placing: { flaw: "no_treatment", clause: "untreated_put" },
  lamp_in_hand: { flaw: "lamp_empty_handed", clause: "lamp_empty" },
  one_at_a_time: { flaw: "take_two", clause: "take_while_holding" },
};

const TYPE_RULE: Record<TaskType, string | null> = {
  pick_and_place_simple: null,
  look_at_obj_in_light: "lamp_in_hand",
  pick_clean_then_place_in_recep: "treat_before_placing",
  pick_heat_then_place_in_recep: "treat_before_placing",
  pick_cool_then_place_in_recep: "treat_before_placing",
  pick_two_obj_and_place: "one_at_a_time",
};

const SHORT: Record<TaskType, string> = {
  pick_and_place_simple: "place",
  look_at_obj_in_light: "look",
  pick_clean_then_place_in_recep: "clean",
  pick_heat_then_place_in_recep: "heat",
  pick_cool_then_place_in_recep: "cool",
  pick_two_obj_and_place: "two",
};

/** One sample item. */
export interface SampleItem {
  id: string;
  task_type: TaskType;
  seed: number;
  sim: { needs: string[]; correct: string; wrong: Record<string, string> };
}

/** The diagnosis clauses of playing `actions` in a fresh copy of `game` (what a rollout would find). */
function clausesOf(game: Game, actions: readonly string[]): Clause[] {
  const sim = new Household(game);
  sim.reset();
  const trace = actions.map((action) => ({ action, feedback: sim.step(action).observation }));
  return [...householdClauses(sim), ...traceClauses(trace)];
}

/** The failure reason a rollout writes for a lost play of `game` (same clauses, same order). */
export function lostReason(game: Game, actions: readonly string[], maxSteps: number): string {
  const clauses = clausesOf(game, actions);
  const ending =
    actions.length >= maxSteps ? `Timeout after ${actions.length} steps` : "Episode ended without completing the task";
  return clauses.length ? `${ending}: ${formatClauses(clauses)}` : ending;
}

/** The annotation of a game, or null when it does not make a clean sample item. */
export function annotateGame(game: Game, maxSteps = SAMPLE_MAX_STEPS): SampleItem["sim"] | null {
  const expert = playToEnd(game, null, maxSteps);
  if (!expert.won || expert.actions.length > MAX_EXPERT_STEPS) return null;
  const typeRule = TYPE_RULE[game.goal.type];
  const candidates = ["open_receptacles", "systematic_search", ...(typeRule ? [typeRule] : [])];
  const needs: string[] = [];
  const wrong: Record<string, string> = {};
  for (const rule of candidates) {
    const { flaw, clause } = RULE_FLAWS[rule]!;
    const played = playToEnd(game, flaw, maxSteps);
    if (played.won) {
      if (rule === typeRule) return null; // the task-specific mistake must always fail
      continue;
    }
    const found = clausesOf(game, played.actions).find((c) => c.kind === clause);
    if (!found) return null;
    needs.push(rule);
    wrong[rule] = found.core;
  }
  if (needs.length > 2) return null;
  // Each flawed play must show its own phrase and no phrase of another need.
  for (const rule of needs) {
    const reason = lostReason(game, playToEnd(game, RULE_FLAWS[rule]!.flaw, maxSteps).actions, maxSteps).toLowerCase();
    for (const other of needs) {
      const has = reason.includes(wrong[other]!.toLowerCase());
      if (has !== (other === rule)) return null;
    }
  }
  return { needs, correct: expert.actions.join(" | "), wrong };
}

/** Which extra need a slot wants, cycling so every split mixes all kinds. */
const EXTRAS = ["open_receptacles", "systematic_search", "none"] as const;

function extraOf(needs: readonly string[]): (typeof EXTRAS)[number] | "both" {
  const open = needs.includes("open_receptacles");
  const search = needs.includes("systematic_search");
  if (open && search) return "both";
  return open ? "open_receptacles" : search ? "systematic_search" : "none";
}

/** Items per task type in each split, and where each split's seeds start. */
export const SAMPLE_PLAN = {
  train: { perType: 3, firstSeed: 1000 },
  val: { perType: 2, firstSeed: 2000 },
  test: { perType: 2, firstSeed: 3000 },
} as const;

/** The whole sample: 18 / 12 / 12 games, every task type in every split, distinct task sentences. */
export function buildSample(): Record<keyof typeof SAMPLE_PLAN, SampleItem[]> {
  const tasks = new Set<string>();
  const out = { train: [] as SampleItem[], val: [] as SampleItem[], test: [] as SampleItem[] };
  for (const split of Object.keys(SAMPLE_PLAN) as Array<keyof typeof SAMPLE_PLAN>) {
    const plan = SAMPLE_PLAN[split];
    TASK_TYPES.forEach((type, t) => {
      let seed = plan.firstSeed + t * 100;
      for (let slot = 0; slot < plan.perType; slot += 1) {
        const want = EXTRAS[(slot + t + split.length) % EXTRAS.length]!;
        for (; ; seed += 1) {
          if (seed > plan.firstSeed + t * 100 + 5000) throw new Error(`no ${want} game found for ${type} in ${split}`);
          const game = generateGame(seed, type);
          if (tasks.has(game.task)) continue;
          const sim = annotateGame(game);
          if (!sim || extraOf(sim.needs) !== want) continue;
          tasks.add(game.task);
          out[split].push({ id: `${split}:${SHORT[type]}:${seed}`, task_type: type, seed, sim });
          seed += 1;
          break;
        }
      }
    });
  }
  return out;
}

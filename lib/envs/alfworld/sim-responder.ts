/**
 * The simulated target for ALFWorld. It is stateless: from the prompt alone it reads the skill (under
 * "Skill Knowledge"), the task sentence and the step number; it recognises the sample game by its task
 * sentence, regenerates it from the seed and plays step N of a plan — the expert's when the skill holds
 * every rule the game needs, otherwise the characteristic mistake of the first missing rule. A seeded
 * slip replaces the expert's final move, so a guided game is sometimes still lost.
 */
import { missingRuleOf, SimItemAnnotationSchema, type SimResponder } from "../../contracts/sim";
import { RULE_FLAWS, SAMPLE_MAX_STEPS } from "./sample-build";
import { SKILL_END, SKILL_HEADING, SKILL_LEAD_IN } from "./prompt";
import { generateGame, type Game } from "./sim/generate";
import { FILLER_ACTION, playToEnd, type Flaw } from "./sim/policy";
import { isTaskType } from "./sim/world";
import sampleTest from "./sample/test/items.json";
import sampleTrain from "./sample/train/items.json";
import sampleVal from "./sample/val/items.json";

interface Known {
  id: string;
  game: Game;
  sim: unknown;
}

let byTask: Map<string, Known> | null = null;

/** Sample games by task sentence (the builder keeps them distinct). */
function sampleIndex(): Map<string, Known> {
  if (byTask) return byTask;
  byTask = new Map();
  for (const item of [...sampleTrain, ...sampleVal, ...sampleTest] as Array<Record<string, unknown>>) {
    if (!isTaskType(item.task_type) || typeof item.seed !== "number") continue;
    const game = generateGame(item.seed, item.task_type);
    byTask.set(game.task, { id: String(item.id), game, sim: item.sim });
  }
  return byTask;
}

const plans = new Map<string, { actions: string[]; won: boolean }>();

function planFor(known: Known, flaw: Flaw | null): { actions: string[]; won: boolean } {
  const key = `${known.id}|${flaw ?? "expert"}`;
  let plan = plans.get(key);
  if (!plan) {
    // Longer than any step limit a run may use; a flawed plan ends in filler actions.
    const played = playToEnd(known.game, flaw, Math.max(SAMPLE_MAX_STEPS, 200));
    plan = { actions: played.actions, won: played.won };
    plans.set(key, plan);
  }
  return plan;
}

/** The skill, task sentence and 1-based step number an ALFWorld prompt carries. */
export function readAlfworldPrompt(user: string): { skill: string; task: string | null; step: number } {
  let skill = "";
  let rest = user;
  if (user.startsWith(SKILL_HEADING)) {
    const start = user.indexOf(SKILL_LEAD_IN);
    const end = user.lastIndexOf(`\n${SKILL_END}`);
    if (start >= 0 && end > start) {
      skill = user.slice(start + SKILL_LEAD_IN.length, end).trim();
      rest = user.slice(end + SKILL_END.length + 1);
    }
  }
  const task = /Your task is to:\s*(.+)/.exec(rest)?.[1]?.trim() ?? null;
  const step = Number(/## Current Step\nStep (\d+)\./.exec(rest)?.[1] ?? 1);
  return { skill, task, step };
}

function reply(thought: string, action: string): string {
  return `<think>${thought}</think>\n<action>${action}</action>`;
}

/** Registered as the benchmark's `simResponder`. */
export const alfworldSimResponder: SimResponder = (call) => {
  const { skill, task, step } = readAlfworldPrompt(call.user);
  if (task === null) return null;
  const known = sampleIndex().get(task);
  if (!known) return reply("I do not recognise this household; I will look around.", FILLER_ACTION);
  const ann = call.knowledge.byId.get(known.id) ?? SimItemAnnotationSchema.safeParse(known.sim).data;
  const missing = ann ? missingRuleOf(ann, skill, call.knowledge.rules) : null;
  const flaw = missing ? (RULE_FLAWS[missing.id]?.flaw ?? null) : null;
  const plan = planFor(known, flaw);
  let action = plan.actions[step - 1] ?? FILLER_ACTION;
  // call.slip is the sim's seeded draw for this exact prompt; only the final winning move may slip.
  const slipped = !missing && call.slip && plan.won && step === plan.actions.length;
  if (slipped) action = "inventory";
  const thought = missing
    ? `Step ${step}: following my usual routine for this task.`
    : `Step ${step}: continuing the plan for "${task}".`;
  return reply(thought, action);
};

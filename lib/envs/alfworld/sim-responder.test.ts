import { describe, expect, it } from "vitest";
import { buildSimKnowledge, type SimTargetCall } from "../../contracts/sim";
import { loadBenchmarkSplits, loadSimKnowledge } from "../registry";
import { buildRunConfig } from "../test-helpers";
import { alfworldSample, alfworldSimRules } from "./index";
import { firstStepPrompt, historyStepPrompt, parseReply, skillSection } from "./prompt";
import { alfworldSimResponder, readAlfworldPrompt } from "./sim-responder";
import { generateGame } from "./sim/generate";
import { Household } from "./sim/household";
import { playToEnd } from "./sim/policy";

const rules = alfworldSimRules();
const splits = alfworldSample();
const knowledge = buildSimKnowledge(rules, [...splits.train, ...splits.val, ...splits.test]);
const item = splits.train.find(
  (i) => (i.sim as { needs: string[] }).needs.join() === "open_receptacles,treat_before_placing",
)!;
const game = generateGame(item.seed as number, item.task_type as "pick_clean_then_place_in_recep");
const guidance = (id: string) => `- ${rules.find((r) => r.id === id)!.guidance}`;

function call(user: string, slip = false): SimTargetCall {
  return { system: "", user, skill: "", item: null, missingRule: null, slip, noise: 0.5, knowledge };
}

/** Plays the responder against the simulator for up to `max` steps, as a rollout would. */
function playResponder(skill: string, max = 24, slipAll = false): { actions: string[]; won: boolean } {
  const sim = new Household(game);
  const first = sim.reset();
  const task = game.task;
  let obs = first;
  const history: Array<{ observation: string; action: string }> = [];
  const actions: string[] = [];
  while (!sim.won && actions.length < max) {
    const prompt =
      actions.length === 0
        ? firstStepPrompt(obs.observation, obs.admissible)
        : historyStepPrompt({
            task,
            stepsTaken: actions.length,
            history,
            observation: obs.observation,
            admissible: obs.admissible,
          });
    const action = parseReply(alfworldSimResponder(call(skillSection(skill) + prompt, slipAll))!).action!;
    history.push({ observation: obs.observation, action });
    actions.push(action);
    obs = sim.step(action);
  }
  return { actions, won: sim.won };
}

describe("ALFWorld simulated target", () => {
  it("is what the registry hands the sim backend, with every sample annotation", () => {
    const config = buildRunConfig({ name: "alfworld", split_mode: "sample" });
    const loaded = loadSimKnowledge(config, loadBenchmarkSplits(config, "/nonexistent"));
    expect(loaded?.respond).toBe(alfworldSimResponder);
    expect(loaded?.byId.size).toBe(42);
    expect(loaded?.rules).toHaveLength(7);
  });

  it("reads skill, task and step back from the prompts it is given", () => {
    const user =
      skillSection("## Finding objects\n- a rule") +
      historyStepPrompt({
        task: "put a mug in shelf.",
        stepsTaken: 6,
        history: [],
        observation: "o",
        admissible: ["look"],
      });
    expect(readAlfworldPrompt(user)).toEqual({
      skill: "## Finding objects\n- a rule",
      task: "put a mug in shelf.",
      step: 7,
    });
    expect(
      readAlfworldPrompt(firstStepPrompt("hi\n\nYour task is to: cool some egg and put it in shelf.", [])),
    ).toEqual({ skill: "", task: "cool some egg and put it in shelf.", step: 1 });
  });

  it("plays the expert plan when the skill has every needed rule", () => {
    const played = playResponder(`${guidance("open_receptacles")}\n${guidance("treat_before_placing")}`);
    expect(played.won).toBe(true);
    expect(played.actions).toEqual(playToEnd(game, null, 24).actions);
  });

  it("plays the first missing rule's mistake otherwise (a harmful line cancels a rule)", () => {
    expect(playResponder(guidance("treat_before_placing")).actions).toEqual(playToEnd(game, "no_open", 24).actions);
    expect(playResponder(guidance("open_receptacles")).actions).toEqual(playToEnd(game, "no_treatment", 24).actions);
    const harmful = `${guidance("open_receptacles")}\n${guidance("treat_before_placing")}\n${guidance("place_then_treat")}`;
    expect(playResponder(harmful).won).toBe(false);
  });

  it("a slip changes only the final winning move", () => {
    const skill = `${guidance("open_receptacles")}\n${guidance("treat_before_placing")}`;
    const slipped = playResponder(skill, 24, true);
    const expert = playToEnd(game, null, 24).actions;
    expect(slipped.won).toBe(false);
    expect(slipped.actions.slice(0, expert.length - 1)).toEqual(expert.slice(0, -1));
    expect(slipped.actions[expert.length - 1]).toBe("inventory");
  });

  it("answers 'look' for a household it does not know, and defers for a prompt without a task", () => {
    expect(parseReply(alfworldSimResponder(call(firstStepPrompt("Your task is to: juggle.", [])))!).action).toBe(
      "look",
    );
    expect(alfworldSimResponder(call("## Question\nWhat?"))).toBeNull();
  });
});

describe("reply parsing", () => {
  it("takes the last action tag, lower-cased; flags missing think and CJK", () => {
    expect(parseReply("<think>a</think><action>x</action><action> Go To  Shelf 1 </action>")).toEqual({
      action: "go to shelf 1",
      reasoning: "a",
      valid: true,
    });
    expect(parseReply("<action>look</action>")).toMatchObject({
      action: "look",
      valid: false,
      problem: "no <think> tag",
    });
    expect(parseReply("<think>t</think><action></action>")).toMatchObject({
      action: null,
      valid: false,
      problem: "no <action> tag",
    });
    expect(parseReply("<think>想</think><action>look</action>")).toMatchObject({
      action: "look",
      valid: false,
      problem: "contains CJK characters",
    });
  });
});

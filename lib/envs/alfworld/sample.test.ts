import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Item } from "../../engine/types";
import { checkSampleIntegrity } from "../common/sample-integrity";
import { alfworldBenchmark, alfworldSample, alfworldSimRules } from "./index";
import { ALFWORLD_SYSTEM_PROMPT } from "./prompt";
import { buildSample, lostReason, RULE_FLAWS, SAMPLE_MAX_STEPS } from "./sample-build";
import { generateGame } from "./sim/generate";
import { Household } from "./sim/household";
import { playToEnd } from "./sim/policy";
import { TASK_TYPES, type TaskType } from "./sim/world";

const splits = alfworldSample();
const rules = alfworldSimRules();
const initial = readFileSync(alfworldBenchmark.initialSkillPath, "utf8");
const all = [...splits.train, ...splits.val, ...splits.test];
const gameOf = (item: Item) => generateGame(item.seed as number, item.task_type as TaskType);

/** An "answer" is a plan, actions joined by " | "; it scores 1 when playing it wins the game. */
function score(item: Item, answer: string): number {
  const sim = new Household(gameOf(item));
  sim.reset();
  for (const action of answer.split(" | ")) sim.step(action);
  return sim.won ? 1 : 0;
}

describe("ALFWorld sample", () => {
  it("is exactly what the generator builds (rewrite with npx tsx lib/envs/alfworld/sample-write.ts)", () => {
    const built = buildSample();
    expect(splits.train).toEqual(built.train);
    expect(splits.val).toEqual(built.val);
    expect(splits.test).toEqual(built.test);
  });

  it("has 18/12/12 games, all six task types in every split, distinct task sentences, normalised items", () => {
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([18, 12, 12]);
    for (const items of [splits.train, splits.val, splits.test]) {
      expect(new Set(items.map((i) => i.task_type))).toEqual(new Set(TASK_TYPES));
    }
    expect(new Set(all.map((i) => gameOf(i).task)).size).toBe(all.length);
    all.forEach((item, index) => expect(alfworldBenchmark.normalise(item, { file: "sample", index })).toEqual(item));
  });

  it("passes every integrity check (expert plan wins, mistakes lose, coverage, detect/conflict hygiene)", () => {
    const problems = checkSampleIntegrity({
      rules,
      splits,
      initialSkill: initial,
      systemPrompt: ALFWORLD_SYSTEM_PROMPT,
      score,
    });
    expect(problems).toEqual([]);
  });

  it("each needed rule's mistake loses with a failure reason that contains its phrase and no other need's", () => {
    for (const item of all) {
      const sim = item.sim as { needs: string[]; wrong: Record<string, string> };
      for (const rule of sim.needs) {
        const played = playToEnd(gameOf(item), RULE_FLAWS[rule]!.flaw, SAMPLE_MAX_STEPS);
        expect(played.won, `${item.id} ${rule}`).toBe(false);
        const reason = lostReason(gameOf(item), played.actions, SAMPLE_MAX_STEPS);
        expect(reason.startsWith(`Timeout after ${SAMPLE_MAX_STEPS} steps: `), reason).toBe(true);
        for (const other of sim.needs)
          expect(reason.includes(sim.wrong[other]!), `${item.id} ${rule} vs ${other}`).toBe(other === rule);
        expect(sim.wrong[rule]!.length).toBeGreaterThanOrEqual(12);
      }
    }
  });

  it("has five real rules and two harmful ones; the seed skill contradicts open_receptacles", () => {
    expect(rules.filter((r) => !r.harmful).map((r) => r.id)).toEqual(Object.keys(RULE_FLAWS));
    expect(rules.filter((r) => r.harmful)).toHaveLength(2);
    const open = rules.find((r) => r.id === "open_receptacles")!;
    expect(open.conflicts.some((c) => new RegExp(c, "i").test(initial))).toBe(true);
  });
});

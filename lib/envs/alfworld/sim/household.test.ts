import { describe, expect, it } from "vitest";
import { generateGame } from "./generate";
import { NOTHING_HAPPENS } from "./actions";
import { Household } from "./household";
import { playToEnd, searchOrder } from "./policy";
import { TASK_TYPES } from "./world";

const SEEDS = Array.from({ length: 20 }, (_, i) => i * 37 + 5);

describe("built-in household simulator", () => {
  it.each(TASK_TYPES)("the scripted expert wins %s on 20 seeds within 50 steps", (type) => {
    for (const seed of SEEDS) {
      const game = generateGame(seed, type);
      const played = playToEnd(game, null, 50);
      expect(played.won, `${type} seed ${seed}: ${played.actions.join(" | ")}`).toBe(true);
      // Every action of the expert was admissible when it was taken.
      expect(played.sim.events.inadmissible, `${type} seed ${seed}`).toEqual([]);
    }
  });

  it.each(TASK_TYPES)("the task-specific mistake never wins %s", (type) => {
    const flaw =
      type === "look_at_obj_in_light"
        ? "lamp_empty_handed"
        : type === "pick_two_obj_and_place"
          ? "take_two"
          : type === "pick_and_place_simple"
            ? null
            : "no_treatment";
    if (flaw === null) return;
    for (const seed of SEEDS) expect(playToEnd(generateGame(seed, type), flaw, 50).won, `seed ${seed}`).toBe(false);
  });

  it("is deterministic: the same seed and type give the same game and the same feedback", () => {
    for (const type of TASK_TYPES) {
      expect(generateGame(11, type)).toEqual(generateGame(11, type));
      const a = playToEnd(generateGame(11, type), null, 50);
      const b = playToEnd(generateGame(11, type), null, 50);
      expect(b.actions).toEqual(a.actions);
    }
    expect(generateGame(11, "pick_and_place_simple")).not.toEqual(generateGame(12, "pick_and_place_simple"));
  });

  it("opens with the room and ends the first observation with the task", () => {
    const game = generateGame(3, "pick_heat_then_place_in_recep");
    const first = new Household(game).reset();
    expect(first.observation).toMatch(/you see .*microwave 1.*\n\nYour task is to: .+\.$/s);
    expect(first.observation.endsWith(game.task)).toBe(true);
    expect(first.won).toBe(false);
    expect(first.admissible).toContain("go to microwave 1");
    expect(first.admissible).toEqual([...first.admissible].sort());
    expect(first.admissible.some((a) => a.startsWith("take "))).toBe(false);
  });

  it("lists exactly the admissible actions: closed receptacles hide objects, one object in hand", () => {
    const game = generateGame(9, "pick_two_obj_and_place");
    const sim = new Household(game);
    sim.reset();
    const closed = game.receptacles.find((r) => r.openable)!;
    const arrive = sim.step(`go to ${closed.name}`);
    expect(arrive.observation).toBe(`You arrive at ${closed.name}. The ${closed.name} is closed.`);
    expect(arrive.admissible).toContain(`open ${closed.name}`);
    expect(arrive.admissible.some((a) => a.startsWith("take "))).toBe(false);
    const opened = sim.step(`open ${closed.name}`);
    expect(opened.observation).toMatch(/^You open the .+\. Inside it, you see /);
    expect(opened.admissible).toContain(`close ${closed.name}`);
    // Take one goal object, then no other take is admissible while it is held.
    const where = game.objects.filter((o) => o.kind === game.goal.object);
    sim.step(`go to ${where[0]!.at}`);
    if (sim.isClosed(where[0]!.at)) sim.step(`open ${where[0]!.at}`);
    const took = sim.step(`take ${where[0]!.name} from ${where[0]!.at}`);
    expect(took.observation).toBe(`You pick up the ${where[0]!.name} from the ${where[0]!.at}.`);
    expect(took.admissible.filter((a) => a.startsWith("take "))).toEqual([]);
    expect(took.admissible).toContain(`put ${where[0]!.name} in/on ${where[0]!.at}`);
    expect(sim.step("inventory").observation).toBe(`You are carrying: a ${where[0]!.name}.`);
  });

  it("every listed action does something, and plausible unlisted ones do nothing (checked along expert plays)", () => {
    for (const type of TASK_TYPES) {
      const game = generateGame(21, type);
      const plan = playToEnd(game, null, 50).actions;
      const fresh = (prefix: readonly string[]) => {
        const sim = new Household(game);
        sim.reset();
        for (const a of prefix) sim.step(a);
        return sim;
      };
      const objects = game.objects.map((o) => o.name);
      const receps = game.receptacles.map((r) => r.name);
      for (let k = 0; k <= plan.length; k += 1) {
        const listed = fresh(plan.slice(0, k)).admissible();
        for (const action of listed) {
          expect(fresh(plan.slice(0, k)).step(action).observation, `${type} after ${k}: ${action}`).not.toBe(
            NOTHING_HAPPENS,
          );
        }
        const probes = [
          ...objects.flatMap((o) => receps.map((r) => `take ${o} from ${r}`)),
          ...objects.flatMap((o) => receps.map((r) => `put ${o} in/on ${r}`)),
          ...receps.flatMap((r) => [`open ${r}`, `close ${r}`]),
          ...objects.map((o) => `use ${o}`),
        ].filter((a) => !listed.includes(a));
        for (const action of probes.filter((_, i) => i % 7 === k % 7)) {
          expect(fresh(plan.slice(0, k)).step(action).observation, `${type} after ${k}: ${action}`).toBe(
            NOTHING_HAPPENS,
          );
        }
      }
    }
  });

  it("answers an inadmissible action with 'Nothing happens.' and records it", () => {
    const sim = new Household(generateGame(4, "pick_and_place_simple"));
    sim.reset();
    for (const bad of ["fly to the moon", "take mug 9 from cabinet 1", "open fridge 1", "put nothing in/on bed 1"]) {
      const r = sim.step(bad);
      expect(r.observation).toBe(NOTHING_HAPPENS);
      expect(r.won).toBe(false);
    }
    expect(sim.events.inadmissible).toHaveLength(4);
    expect(sim.where).toBeNull();
  });

  it("accepts 'put X in Y' / 'put X on Y' for 'put X in/on Y' and ignores case and a final period", () => {
    const game = generateGame(2, "pick_and_place_simple");
    const played = playToEnd(game, null, 50);
    const sim = new Household(game);
    sim.reset();
    for (const a of played.actions) {
      const typed = a.startsWith("put ") ? `${a.replace(" in/on ", " on ").toUpperCase()}.` : a;
      expect(sim.step(typed).observation).not.toBe(NOTHING_HAPPENS);
    }
    expect(sim.won).toBe(true);
  });

  it("searches plausible receptacles first and never the goal receptacle", () => {
    const game = generateGame(8, "pick_clean_then_place_in_recep");
    const order = searchOrder(game);
    expect(order.some((r) => r.startsWith(`${game.goal.target} `))).toBe(false);
    expect(order.some((r) => r.startsWith("sinkbasin "))).toBe(false);
  });
});

/**
 * Scripted players of the built-in simulator. The expert searches the likely receptacles in order
 * (opening closed ones), treats the object with the right appliance, and places objects one at a time;
 * each flaw replaces one good habit with a characteristic mistake. The simulated target plays these
 * plans, and the tests use the expert to prove every generated game is solvable.
 */
import type { Game } from "./generate";
import { Household } from "./household";
import { OBJECT_PLACES, TREATMENTS } from "./world";

/** A missing habit: which mistake the player makes instead. */
export type Flaw = "no_open" | "no_treatment" | "lamp_empty_handed" | "take_two" | "loop_search";

/** The filler action once a flawed plan has nothing sensible left to try. */
export const FILLER_ACTION = "look";

/** Receptacles in the order a sensible searcher checks them: plausible kinds first, then the rest. */
export function searchOrder(game: Game): string[] {
  const likely = OBJECT_PLACES[game.goal.object] ?? [];
  const banned = new Set<string>();
  if (game.goal.type !== "look_at_obj_in_light") banned.add(game.goal.target);
  if (game.goal.treatment) banned.add(TREATMENTS[game.goal.treatment].appliance);
  const rank = (kind: string) => (likely.includes(kind) ? likely.indexOf(kind) : likely.length);
  return game.receptacles
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => !banned.has(r.kind))
    .sort((a, b) => rank(a.r.kind) - rank(b.r.kind) || a.i - b.i)
    .map(({ r }) => r.name);
}

/** Plays `game` with the expert (no flaw) or one flaw; yields one action per step. */
export function* playGame(sim: Household, flaw: Flaw | null): Generator<string, void, void> {
  const game = sim.game;
  const goal = game.goal;
  const order = searchOrder(game);
  const known = new Map<string, string>(); // goal-kind object → receptacle where it was seen
  const used = new Set<string>();
  let searched = 0;

  const note = (recep: string) => {
    for (const name of sim.visibleAt(recep))
      if (sim.kindOf(name) === goal.object && !used.has(name)) known.set(name, recep);
  };
  function* goTo(recep: string): Generator<string, void, void> {
    if (sim.where !== recep) yield `go to ${recep}`;
    if (sim.isClosed(recep) && flaw !== "no_open") yield `open ${recep}`;
    note(recep);
  }
  /** Finds an unused goal object and stands where it lies; null when the search gives up. */
  function* find(exclude: string | null): Generator<string, { name: string; at: string } | null, void> {
    for (;;) {
      const hit = [...known.entries()].find(([name]) => name !== exclude && !used.has(name));
      if (hit) {
        yield* goTo(hit[1]);
        return { name: hit[0], at: hit[1] };
      }
      if (flaw === "loop_search" && searched >= 2) {
        // The characteristic navigation loop: back and forth between the first two places.
        for (;;) yield* goTo(order[searched++ % 2]!);
      }
      const next = order[searched];
      if (next === undefined) return null;
      searched += 1;
      yield* goTo(next);
    }
  }
  function* filler(): Generator<string, void, void> {
    for (;;) yield FILLER_ACTION;
  }

  for (let placed = 0; placed < goal.count; placed += 1) {
    const found = yield* find(null);
    if (!found) return yield* filler();
    if (goal.type === "look_at_obj_in_light") return yield* lookAt(found);
    yield `take ${found.name} from ${found.at}`;
    used.add(found.name);
    known.delete(found.name);
    if (goal.count === 2 && placed === 0 && flaw === "take_two") {
      const second = yield* find(found.name);
      if (!second) return yield* filler();
      for (;;) yield `take ${second.name} from ${second.at}`;
    }
    if (goal.treatment && flaw !== "no_treatment") {
      const t = TREATMENTS[goal.treatment];
      const appliance = game.receptacles.find((r) => r.kind === t.appliance)!.name;
      if (sim.where !== appliance) yield `go to ${appliance}`;
      yield `${goal.treatment} ${found.name} with ${appliance}`;
    }
    const target = game.receptacles.find((r) => r.kind === goal.target)!.name;
    yield* goTo(target);
    yield `put ${found.name} in/on ${target}`;
    if (sim.isClosed(target) || (goal.treatment && flaw === "no_treatment")) return yield* filler();
  }
  yield* filler();

  function* lookAt(found: { name: string; at: string }): Generator<string, void, void> {
    const lamp = game.objects.find((o) => o.fixed)!;
    if (flaw === "lamp_empty_handed") {
      if (sim.where !== lamp.at) yield `go to ${lamp.at}`;
      yield `use ${lamp.name}`;
      yield `go to ${found.at}`;
      return yield* filler();
    }
    yield `take ${found.name} from ${found.at}`;
    if (sim.where !== lamp.at) yield `go to ${lamp.at}`;
    yield `use ${lamp.name}`;
    yield* filler();
  }
}

/** The outcome of playing a game to the end or to `maxSteps`. */
export interface PlayedGame {
  actions: string[];
  won: boolean;
  sim: Household;
}

/** Plays a fresh copy of `game` for at most `maxSteps` actions. */
export function playToEnd(game: Game, flaw: Flaw | null, maxSteps: number): PlayedGame {
  const sim = new Household(game);
  sim.reset();
  const actions: string[] = [];
  const player = playGame(sim, flaw);
  while (actions.length < maxSteps && !sim.won) {
    const next = player.next();
    if (next.done) break;
    actions.push(next.value);
    sim.step(next.value);
  }
  return { actions, won: sim.won, sim };
}

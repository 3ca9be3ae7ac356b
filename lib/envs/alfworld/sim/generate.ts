/**
 * Procedural household games: `generateGame(seed, taskType)` draws a room, its receptacles, the goal
 * objects, a few distractors and the task sentence, all from one seeded Python-compatible RNG, so the
 * same seed and type always give the same game.
 */
import { PyRandom } from "../../../engine/py-random";
import {
  LAMP_PLACES,
  OBJECT_PLACES,
  ROOMS,
  TASK_FAMILIES,
  TREATMENTS,
  treatmentOf,
  type RoomKind,
  type TaskType,
  type Treatment,
} from "./world";

/** A receptacle instance, e.g. `{name: "drawer 2", kind: "drawer", openable: true}`. */
export interface RecepDef {
  name: string;
  kind: string;
  openable: boolean;
}

/** An object instance and where it starts (a receptacle name). */
export interface ObjectDef {
  name: string;
  kind: string;
  at: string;
  /** Lamps are fixed: they can be used where they stand, never taken. */
  fixed?: boolean;
}

/** What has to hold for the game to be won. */
export interface Goal {
  type: TaskType;
  object: string;
  /** Goal receptacle kind (placing tasks) or lamp kind (look_at). */
  target: string;
  treatment: Treatment | null;
  count: 1 | 2;
}

/** One generated game. */
export interface Game {
  seed: number;
  room: RoomKind;
  receptacles: RecepDef[];
  objects: ObjectDef[];
  goal: Goal;
  /** The sentence after "Your task is to: ". */
  task: string;
}

function pick<T>(rng: PyRandom, list: readonly T[]): T {
  return list[rng.randbelow(list.length)] as T;
}

function between(rng: PyRandom, min: number, max: number): number {
  return min + rng.randbelow(max - min + 1);
}

function buildReceptacles(rng: PyRandom, room: RoomKind, needed: readonly string[]): RecepDef[] {
  const out: RecepDef[] = [];
  for (const spec of ROOMS[room]) {
    const n = Math.max(between(rng, spec.min, spec.max), needed.includes(spec.kind) ? 1 : 0);
    for (let i = 1; i <= n; i += 1)
      out.push({ name: `${spec.kind} ${i}`, kind: spec.kind, openable: spec.openable === true });
  }
  return out;
}

function taskSentence(rng: PyRandom, goal: Goal): string {
  const { object: o, target: t } = goal;
  const variants: Record<TaskType, string[]> = {
    pick_and_place_simple: [`put a ${o} in ${t}.`, `put some ${o} on ${t}.`],
    look_at_obj_in_light: [`examine the ${o} with the ${t}.`, `look at ${o} under the ${t}.`],
    pick_clean_then_place_in_recep: [`put a clean ${o} in ${t}.`, `clean some ${o} and put it in ${t}.`],
    pick_heat_then_place_in_recep: [`put a hot ${o} in ${t}.`, `heat some ${o} and put it in ${t}.`],
    pick_cool_then_place_in_recep: [`put a cool ${o} in ${t}.`, `cool some ${o} and put it in ${t}.`],
    pick_two_obj_and_place: [`put two ${o} in ${t}.`, `find two ${o} and put them in ${t}.`],
  };
  return pick(rng, variants[goal.type]);
}

/** Receptacles an object of `kind` may start in: plausible ones, never the goal kind or the appliance. */
function placesFor(kind: string, receps: readonly RecepDef[], banned: ReadonlySet<string>): RecepDef[] {
  const allowed = receps.filter((r) => !banned.has(r.kind));
  const plausible = allowed.filter((r) => (OBJECT_PLACES[kind] ?? []).includes(r.kind));
  return plausible.length > 0 ? plausible : allowed;
}

/** Object kinds that belong in a room: those some task family of that room uses. */
function roomObjects(room: RoomKind): string[] {
  const kinds = new Set<string>();
  for (const families of Object.values(TASK_FAMILIES)) {
    for (const f of families) if (f.room === room) for (const o of f.objects) kinds.add(o);
  }
  return [...kinds].sort();
}

/** The game of `seed` and `type`; the same inputs always give the same game. */
export function generateGame(seed: number, type: TaskType): Game {
  const rng = new PyRandom(seed * 7 + type.length);
  const family = pick(rng, TASK_FAMILIES[type]);
  const treatment = treatmentOf(type);
  const object = pick(rng, family.objects);
  const target = pick(rng, family.targets);
  const goal: Goal = { type, object, target, treatment, count: type === "pick_two_obj_and_place" ? 2 : 1 };
  const isLook = type === "look_at_obj_in_light";
  const needed = [
    isLook
      ? pick(
          rng,
          LAMP_PLACES[target]!.filter((k) => ROOMS[family.room].some((s) => s.kind === k)),
        )
      : target,
  ];
  if (treatment) needed.push(TREATMENTS[treatment].appliance);
  const receptacles = buildReceptacles(rng, family.room, needed);
  const objects: ObjectDef[] = [];
  const counters = new Map<string, number>();
  const add = (kind: string, at: string, fixed = false) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    objects.push({ name: `${kind} ${n}`, kind, at, ...(fixed ? { fixed } : {}) });
  };
  if (isLook) {
    const stands = receptacles.filter((r) => r.kind === needed[0]);
    add(target, pick(rng, stands).name, true);
  }
  const banned = new Set<string>(isLook ? [] : [target]);
  if (treatment) banned.add(TREATMENTS[treatment].appliance);
  const copies = goal.count === 2 ? between(rng, 2, 3) : between(rng, 1, 2);
  const goalPlaces = placesFor(object, receptacles, banned);
  for (let i = 0; i < copies; i += 1) add(object, pick(rng, goalPlaces).name);
  const others = roomObjects(family.room).filter((k) => k !== object);
  const nDistractors = between(rng, 3, 7);
  for (let i = 0; i < nDistractors; i += 1) {
    const kind = pick(rng, others);
    add(kind, pick(rng, placesFor(kind, receptacles, new Set())).name);
  }
  return { seed, room: family.room, receptacles, objects, goal, task: taskSentence(rng, goal) };
}

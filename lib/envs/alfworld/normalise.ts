/**
 * ALFWorld items (spec §A.10). Two shapes are accepted: the original's `{id, gamefile, task_type}`
 * (a game of the real ALFWorld, path relative to $ALFWORLD_DATA) and the built-in simulator's
 * `{id, task_type, seed}`. The task type is one of the six canonical names; for game files it may be
 * derived from the path (else `other`).
 */
import { invalidItem, type RowOrigin } from "../common/read-items";
import { isTaskType, TASK_TYPES, type TaskType } from "./sim/world";

/** Path fragments naming each task type, most specific first (`pick_and_place` is the simple one). */
const PATH_TYPES: Array<[string, TaskType]> = [
  ["pick_two_obj_and_place", "pick_two_obj_and_place"],
  ["look_at_obj_in_light", "look_at_obj_in_light"],
  ["pick_heat_then_place_in_recep", "pick_heat_then_place_in_recep"],
  ["pick_cool_then_place_in_recep", "pick_cool_then_place_in_recep"],
  ["pick_clean_then_place_in_recep", "pick_clean_then_place_in_recep"],
  ["pick_and_place", "pick_and_place_simple"],
];

/** The task type named in a game path, or `other`. */
export function taskTypeFromPath(path: string): TaskType | "other" {
  return PATH_TYPES.find(([fragment]) => path.includes(fragment))?.[1] ?? "other";
}

function seedOf(raw: unknown, at: RowOrigin): number | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const n = typeof raw === "string" ? Number(raw.trim()) : raw;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    invalidItem(at, "'seed' must be a non-negative integer");
  return n;
}

/** Normalises one raw row; an item needs a `seed` (built-in simulator) or a `gamefile` (ALFWorld). */
export function normaliseAlfworldRow(row: Record<string, unknown>, at: RowOrigin): Record<string, unknown> {
  const gamefile = typeof row.gamefile === "string" && row.gamefile.trim() !== "" ? row.gamefile.trim() : undefined;
  if (row.gamefile !== undefined && gamefile === undefined) invalidItem(at, "'gamefile' must be a non-empty string");
  const seed = seedOf(row.seed, at);
  if (seed === undefined && gamefile === undefined) {
    invalidItem(at, "needs 'seed' (built-in simulator) or 'gamefile' (real ALFWorld)");
  }
  const given = typeof row.task_type === "string" ? row.task_type.trim() : "";
  let taskType: string;
  if (given !== "") {
    if (!isTaskType(given) && given !== "other") {
      invalidItem(at, `unknown task_type '${given}' (expected one of ${TASK_TYPES.join(", ")})`);
    }
    taskType = given;
  } else if (gamefile !== undefined) {
    taskType = taskTypeFromPath(gamefile);
  } else {
    return invalidItem(at, "missing field 'task_type'");
  }
  const id = row.id ?? gamefile;
  return {
    ...row,
    id,
    task_type: taskType,
    ...(seed !== undefined ? { seed } : {}),
    ...(gamefile ? { gamefile } : {}),
  };
}

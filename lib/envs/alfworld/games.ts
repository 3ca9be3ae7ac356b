/**
 * Which game an item plays: the built-in simulator (an item's `seed`, or a stable hash of its
 * `gamefile` so the original's manifests also run offline) or the real ALFWorld through the bridge
 * (`env.simulator: alfworld`, the item's `gamefile` resolved against $ALFWORLD_DATA).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { PathGuard } from "../common/path-guard";
import type { Item } from "../../engine/types";
import { openBridgeSession } from "./bridge/client";
import { householdSession, type GameSession } from "./session";
import { generateGame, type Game } from "./sim/generate";
import { isTaskType } from "./sim/world";

export type Simulator = "builtin" | "alfworld";

/** What resolving a game needs from the run. */
export interface GameContext {
  simulator: Simulator;
  rootDir: string;
  vars: Readonly<Record<string, string | undefined>>;
  /** Longest wait for one bridge answer, in milliseconds. */
  bridgeTimeoutMs: number;
  /**
   * The run's path guard. A game file named by an item is data (an upload is anyone's content): for a
   * dashboard run it is taken literally (no `~` or `$VAR`, whose values could surface in messages) and
   * must lie inside the allowed roots, which include ALFWORLD_DATA.
   */
  paths?: PathGuard;
}

export type ResolvedGame =
  { ok: true; session: GameSession; game?: Game; gamePath?: string } | { ok: false; reason: string };

/** FNV-1a of a text: a stable seed for a game file played on the built-in simulator. */
export function seedFromText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 1_000_000;
}

/** The built-in game of an item, or why it has none. */
export function builtinGame(item: Item): Game | string {
  if (!isTaskType(item.task_type))
    return `task_type '${String(item.task_type ?? "")}' is not one of the six ALFWorld task types`;
  const seed =
    typeof item.seed === "number" ? item.seed : typeof item.gamefile === "string" ? seedFromText(item.gamefile) : null;
  if (seed === null) return "item has neither 'seed' nor 'gamefile'";
  return generateGame(seed, item.task_type);
}

/** Expands `~` and `$VAR` / `${VAR}` with the given variables. */
export function expandPath(raw: string, vars: GameContext["vars"]): string {
  const home = raw.startsWith("~") ? `${vars.HOME ?? "~"}${raw.slice(1)}` : raw;
  return home.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (m, a: string | undefined, b: string | undefined) => vars[(a ?? b)!] ?? m,
  );
}

/** The absolute game path of an item, or why it cannot be found (or, for a confined guard, may not be read). */
export function resolveGamefile(
  gamefile: string,
  vars: GameContext["vars"],
  paths?: PathGuard,
): { path: string } | { error: string } {
  const expanded = paths?.confined ? gamefile : expandPath(gamefile, vars);
  let full = expanded;
  if (!path.isAbsolute(expanded)) {
    const data = vars.ALFWORLD_DATA?.trim();
    if (!data)
      return {
        error: `ALFWORLD_DATA is not set; it is needed to find '${gamefile}' (run alfworld-download and export ALFWORLD_DATA)`,
      };
    full = path.resolve(expandPath(data, vars), expanded);
  }
  if (paths) {
    const checked = paths.check("gamefile", full);
    if (!checked.ok) return { error: `game file '${gamefile}' is outside the folders the dashboard may read` };
    full = checked.path;
  }
  if (!existsSync(full)) return { error: `game file not found: ${full}` };
  return { path: full };
}

const PASSED_VARS = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV", "CONDA_PREFIX", "SYSTEMROOT"];

function bridgeEnv(vars: GameContext["vars"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) continue;
    if (PASSED_VARS.includes(k) || k.startsWith("PYTHON") || k.startsWith("ALFWORLD_")) out[k] = v;
  }
  return out;
}

/** Opens the session an item plays in. */
export function resolveGame(item: Item, ctx: GameContext): ResolvedGame {
  if (ctx.simulator === "builtin") {
    const game = builtinGame(item);
    if (typeof game === "string") return { ok: false, reason: game };
    return { ok: true, session: householdSession(game), game };
  }
  if (typeof item.gamefile !== "string")
    return { ok: false, reason: "env.simulator is alfworld but the item has no 'gamefile'" };
  const where = resolveGamefile(item.gamefile, ctx.vars, ctx.paths);
  if ("error" in where) return { ok: false, reason: where.error };
  const script =
    ctx.vars.ALFWORLD_BRIDGE_SCRIPT?.trim() || path.join(ctx.rootDir, "lib/envs/alfworld/bridge/alfworld_bridge.py");
  try {
    const session = openBridgeSession({
      command: ctx.vars.ALFWORLD_PYTHON?.trim() || "python3",
      args: [script],
      gamefile: where.path,
      env: bridgeEnv(ctx.vars),
      timeoutMs: ctx.bridgeTimeoutMs,
    });
    return { ok: true, session, gamePath: where.path };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

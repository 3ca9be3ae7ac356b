/**
 * Where each agent keeps its transcripts on a given platform, from the home folder and the environment
 * the caller passes in (never this process's own). An explicit root from the config always wins.
 */
import { existsSync } from "node:fs";
import type { ResolvedHarvestOptions } from "./options";
import { pathRules } from "./scope";

type Opts = Pick<ResolvedHarvestOptions, "home" | "platform" | "env">;

function api(o: Opts) {
  return pathRules(o.platform).api;
}

/** An explicit root (relative ones resolve against home), else `<home>/<dot folder>`. */
function rootOr(o: Opts, explicit: string, dotFolder: string): string {
  const p = api(o);
  return explicit ? p.resolve(o.home, explicit) : p.join(o.home, dotFolder);
}

export const claudeRoot = (o: Opts & { claudeHome: string }) => rootOr(o, o.claudeHome, ".claude");
export const codexRoot = (o: Opts & { codexHome: string }) => rootOr(o, o.codexHome, ".codex");
export const piRoot = (o: Opts & { piHome: string }) => rootOr(o, o.piHome, ".pi");
export const cursorRoot = (o: Opts & { cursorHome: string }) => rootOr(o, o.cursorHome, ".cursor");

export function copilotCliStore(o: Opts & { copilotCliSessionStore: string }): string {
  const p = api(o);
  return o.copilotCliSessionStore
    ? p.resolve(o.home, o.copilotCliSessionStore)
    : p.join(o.home, ".copilot", "session-store.db");
}

/**
 * VS Code's `User/workspaceStorage` folders: the portable install first (`VSCODE_PORTABLE` is its data
 * folder, user data lives in `user-data` below it), then stable and Insiders.
 */
export function vscodeWorkspaceStorageRoots(o: Opts & { vscodeWorkspaceStorage: string }): string[] {
  const p = api(o);
  if (o.vscodeWorkspaceStorage) return [p.resolve(o.home, o.vscodeWorkspaceStorage)];
  let base: string;
  if (o.platform === "win32") base = o.env.APPDATA || p.join(o.home, "AppData", "Roaming");
  else if (o.platform === "darwin") base = p.join(o.home, "Library", "Application Support");
  else base = o.env.XDG_CONFIG_HOME || p.join(o.home, ".config");
  const userDirs = [p.join(base, "Code"), p.join(base, "Code - Insiders")];
  if (o.env.VSCODE_PORTABLE) userDirs.unshift(p.join(p.resolve(o.home, o.env.VSCODE_PORTABLE), "user-data"));
  return userDirs.map((d) => p.join(d, "User", "workspaceStorage"));
}

/** OpenCode's data folders, most specific first: XDG_DATA_HOME, then on Windows LOCALAPPDATA and APPDATA. */
function opencodeDataDirs(o: Opts): string[] {
  const p = api(o);
  if (o.env.XDG_DATA_HOME) return [p.join(p.resolve(o.home, o.env.XDG_DATA_HOME), "opencode")];
  const dirs: string[] = [];
  if (o.platform === "win32") {
    for (const base of [o.env.LOCALAPPDATA, o.env.APPDATA]) if (base) dirs.push(p.join(base, "opencode"));
  }
  dirs.push(p.join(o.home, ".local", "share", "opencode"));
  return [...new Set(dirs)];
}

/**
 * The OpenCode database: the configured path, else `OPENCODE_DB`, else `opencode.db` in the first data
 * folder that has one. A relative path is taken inside the data folder, as OpenCode does. `:memory:`
 * (OpenCode keeping nothing on disk) gives null: there is nothing to read.
 */
export function opencodeDbPath(
  o: Opts & { opencodeDb: string },
  exists: (f: string) => boolean = existsSync,
): string | null {
  const p = api(o);
  const dirs = opencodeDataDirs(o);
  const dataDir = dirs.find((d) => exists(p.join(d, "opencode.db"))) ?? dirs[0]!;
  const configured = o.opencodeDb || o.env.OPENCODE_DB || "";
  if (configured === ":memory:") return null;
  if (!configured) return p.join(dataDir, "opencode.db");
  return p.isAbsolute(configured) ? p.resolve(configured) : p.resolve(dataDir, configured);
}

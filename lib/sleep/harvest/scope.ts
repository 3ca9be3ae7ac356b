/**
 * Which sessions a harvest keeps: project scope and the `since` bound. Paths follow the rules of the
 * platform whose transcripts are read (Windows: `\` separators, case-insensitive), not of this process.
 */
import path from "node:path";
import type { Clock } from "../../engine/ports";
import type { HarvestScope, HarvestSince } from "./options";

export interface PathRules {
  api: path.PlatformPath;
  caseless: boolean;
}

export function pathRules(platform: string): PathRules {
  return platform === "win32" ? { api: path.win32, caseless: true } : { api: path.posix, caseless: false };
}

/** A comparable form of an absolute folder: resolved, no trailing separator, folded case on Windows. */
function comparable(p: string, rules: PathRules): string {
  const resolved = rules.api.resolve(p);
  return rules.caseless ? resolved.toLowerCase() : resolved;
}

export function isSamePath(a: string, b: string, rules: PathRules): boolean {
  return rules.api.isAbsolute(a) && rules.api.isAbsolute(b) && comparable(a, rules) === comparable(b, rules);
}

/** `inner` is `outer` or a folder below it. */
export function isSameOrInside(inner: string, outer: string, rules: PathRules): boolean {
  if (!rules.api.isAbsolute(inner) || !rules.api.isAbsolute(outer)) return false;
  const a = comparable(inner, rules);
  const b = comparable(outer, rules);
  if (a === b) return true;
  return a.startsWith(b.endsWith(rules.api.sep) ? b : b + rules.api.sep);
}

/** One folder is the other, or an ancestor or descendant of it. */
export function isRelatedPath(a: string, b: string, rules: PathRules): boolean {
  return isSameOrInside(a, b, rules) || isSameOrInside(b, a, rules);
}

/**
 * `all` keeps every session (even one with no known project); `invoked` keeps the project and any
 * ancestor or descendant folder; `list` keeps exactly the listed folders.
 */
export function inScope(project: string, scope: HarvestScope, rules: PathRules): boolean {
  switch (scope.kind) {
    case "all":
      return true;
    case "invoked":
      return project !== "" && isRelatedPath(project, scope.project, rules);
    case "list":
      return project !== "" && scope.projects.some((p) => isSamePath(project, p, rules));
  }
}

/** Milliseconds since the epoch; a time without an offset is local time (as the original's checkpoints are). */
export function toEpochMs(iso: string): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/** The lower time bound that applies to a project's sessions; `lowest` bounds every session (file pre-filter). */
export interface SinceBound {
  boundFor(project: string): number | null;
  lowest: number | null;
}

export function makeSinceBound(since: HarvestSince, clock: Clock | undefined, rules: PathRules): SinceBound {
  if (since.kind === "none") return { boundFor: () => null, lowest: null };
  if (since.kind === "after") {
    const at = toEpochMs(since.iso);
    return { boundFor: () => at, lowest: at };
  }
  const fallback = since.lookbackHours > 0 && clock ? clock.now() - since.lookbackHours * 3_600_000 : null;
  const entries = Object.entries(since.checkpoints)
    .map(([folder, iso]) => ({ folder, at: toEpochMs(iso)! }))
    // The most specific folder wins when several relate to a session's project.
    .sort((x, y) => y.folder.length - x.folder.length);
  const boundFor = (project: string): number | null => {
    const hit = project ? entries.find((e) => isRelatedPath(project, e.folder, rules)) : undefined;
    return hit ? hit.at : fallback;
  };
  const all = [...entries.map((e) => e.at), fallback];
  const lowest = all.some((v) => v === null) ? null : Math.min(...(all as number[]));
  return { boundFor, lowest };
}

/** A session is kept when its end is unknown or not before the bound. */
export function endedBefore(endedAt: string, bound: number | null): boolean {
  if (bound === null) return false;
  const ended = toEpochMs(endedAt);
  return ended !== null && ended < bound;
}

/** `YYYY-MM-DD HH:MM:SS` (SQLite's CURRENT_TIMESTAMP, which is UTC) as ISO 8601 with `T` and `Z`. */
export function normalizeSqlTime(value: unknown): string {
  if (typeof value !== "string") return "";
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/.test(v)) return `${v.slice(0, 10)}T${v.slice(11)}Z`;
  return v;
}

/** Epoch seconds or milliseconds (as VS Code and OpenCode store them) as ISO 8601. */
export function isoFromEpoch(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return "";
  const ms = value > 10_000_000_000 ? value : value * 1000;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

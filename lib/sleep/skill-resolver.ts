/**
 * Skill names seen in transcripts → a live SKILL.md (spec D.9). Names are untrusted, so resolution is
 * narrow: one plain path segment, matched only inside known skill roots, the file's real path re-checked
 * to lie inside its root. Missing, ambiguous and rejected are distinct outcomes; nothing here writes.
 */
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import type { SleepConfig } from "./config";

export type Resolution =
  | { ok: true; name: string; path: string }
  | { ok: false; name: string; status: "missing" | "ambiguous" | "rejected"; reason: string };

/** The name as a single safe folder name, or "" when it is unusable. */
export function normaliseSkillName(name: unknown): string {
  if (typeof name !== "string") return "";
  const n = name.trim();
  if (!n || n === "." || n === ".." || n.startsWith("~") || isAbsolute(n) || /[\\/]/.test(n) || /^[A-Za-z]:/.test(n))
    return "";
  // eslint-disable-next-line no-control-regex -- a name with control characters is refused
  if (/[\u0000-\u001f\u007f]/.test(n)) return "";
  return n;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return []; // an absent or unreadable root has no skills
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Numeric version segments compare as numbers; a release outranks a pre-release of the same numbers. */
function versionKey(name: string): [number[], number, string] {
  const nums: number[] = [];
  let suffix = false;
  for (const part of name.split(/[._\-+]/)) {
    if (!suffix && /^\d+$/.test(part)) nums.push(Number(part));
    else suffix = true;
  }
  return [nums, suffix ? 0 : 1, name];
}

function compareVersions(a: string, b: string): number {
  const [na, ra, sa] = versionKey(a);
  const [nb, rb, sb] = versionKey(b);
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const d = (na[i] ?? -1) - (nb[i] ?? -1);
    if (d !== 0) return d;
  }
  return ra - rb || (sa < sb ? -1 : sa > sb ? 1 : 0);
}

/** An installed plugin's one skills folder: the newest version's, else the legacy unversioned one. */
function pluginSkillsRoot(pluginDir: string): string {
  const versions = list(pluginDir).filter((v) => isDir(join(pluginDir, v, "skills")));
  if (versions.length > 0) return join(pluginDir, versions.sort(compareVersions).at(-1)!, "skills");
  return isDir(join(pluginDir, "skills")) ? join(pluginDir, "skills") : "";
}

/** Every skill root that exists, in a fixed order: the project's agent folders, Claude home, extra roots, plugin caches. */
export function skillSearchRoots(cfg: SleepConfig): string[] {
  const p = cfg.invoked_project;
  const roots = [".agents/skills", ".claude/skills", ".cursor/skills", ".devin/skills"].map((r) => join(p, r));
  roots.push(join(cfg.claude_home, "skills"), ...cfg.skill_roots);
  const cache = join(cfg.claude_home, "plugins", "cache");
  for (const market of list(cache)) {
    if (!isDir(join(cache, market))) continue;
    for (const plugin of list(join(cache, market))) {
      const root = pluginSkillsRoot(join(cache, market, plugin));
      if (root) roots.push(root);
    }
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of roots) {
    if (!isDir(r)) continue;
    const real = realpathSync(r);
    if (!seen.has(real)) {
      seen.add(real);
      out.push(real);
    }
  }
  return out;
}

function containedSkillFile(root: string, name: string): string {
  const candidate = join(root, name, "SKILL.md");
  if (!existsSync(candidate)) return "";
  const real = realpathSync(candidate);
  const rel = relative(root, real);
  if (rel.startsWith("..") || isAbsolute(rel) || !statSync(real).isFile()) return "";
  return real;
}

export function resolveSkill(name: unknown, roots: readonly string[]): Resolution {
  const n = normaliseSkillName(name);
  if (!n)
    return {
      ok: false,
      name: typeof name === "string" ? name : "",
      status: "rejected",
      reason: "skill name is empty or not a single safe path segment",
    };
  const matches = [...new Set(roots.map((r) => containedSkillFile(r, n)).filter(Boolean))];
  if (matches.length === 0)
    return {
      ok: false,
      name: n,
      status: "missing",
      reason: "no SKILL.md for this skill in the configured skill roots",
    };
  if (matches.length > 1)
    return {
      ok: false,
      name: n,
      status: "ambiguous",
      reason: `several skill roots define this skill: ${matches.join(", ")}`,
    };
  return { ok: true, name: n, path: matches[0]! };
}

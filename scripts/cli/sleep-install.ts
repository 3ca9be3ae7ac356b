/**
 * Installers of the agent integrations (spec D.15):
 * - `sleep install-codex-skill` copies `plugins/codex/skills/skillopt-sleep/SKILL.md` to
 *   `~/.agents/skills/skillopt-sleep/SKILL.md` (where Codex finds user skills) and retires the old
 *   `$CODEX_HOME/prompts/sleep.md` entry point when it is SkillOpt's;
 * - `sleep install-cursor-plugin` copies `plugins/cursor/` to `$CURSOR_HOME/plugins/local/skillopt-sleep/`.
 * Both print the `SKILLOPT_SLEEP_REPO` export. An installed file that differs from ours is the user's edit:
 * nothing is written unless `--force`, which keeps each such file as a backup first. Exit 0 installed or
 * already current, 1 refused.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { snakeKeys } from "../../lib/sleep";
import { printJson, say, type Flags } from "./sleep-args";
import { REPO_ROOT } from "./sleep-schedule";

export interface InstallRequest {
  home: string;
  /** `$CODEX_HOME` (default `<home>/.codex`) or `$CURSOR_HOME` (default `<home>/.cursor`). */
  toolHome: string;
  repo: string;
  force: boolean;
  /** Suffix of backup names when `.bak` is taken (a timestamp from the caller). */
  stamp: string;
}

export interface InstallOutcome {
  ok: boolean;
  action: "installed" | "updated" | "unchanged" | "refused";
  /** The installed files (the first is the main one). */
  paths: string[];
  backups: string[];
  legacyRetired: string | null;
  message: string;
  export: string;
}

function freeName(base: string, stamp: string): string {
  return existsSync(base) ? `${base.replace(/\.bak$/, "")}.${stamp}.bak` : base;
}

/** Copies `[source, target]` pairs: all or nothing when a target was edited and there is no --force. */
function installFiles(
  pairs: Array<[string, string]>,
  r: InstallRequest,
): Omit<InstallOutcome, "legacyRetired" | "message"> {
  const exportLine = `export SKILLOPT_SLEEP_REPO=${JSON.stringify(r.repo)}`;
  const texts = pairs.map(([src]) => readFileSync(src, "utf8"));
  const state = pairs.map(([, dst], i) =>
    !existsSync(dst) ? "new" : readFileSync(dst, "utf8") === texts[i] ? "same" : "edited",
  );
  const paths = pairs.map(([, dst]) => dst);
  if (state.includes("edited") && !r.force)
    return { ok: false, action: "refused", paths, backups: [], export: exportLine };
  const backups: string[] = [];
  pairs.forEach(([, dst], i) => {
    if (state[i] === "same") return;
    if (state[i] === "edited") {
      const backup = freeName(`${dst}.bak`, r.stamp);
      copyFileSync(dst, backup);
      backups.push(backup);
    }
    mkdirSync(dirname(dst), { recursive: true });
    const tmp = `${dst}.tmp-${process.pid}`;
    writeFileSync(tmp, texts[i]!);
    renameSync(tmp, dst);
  });
  const action = state.every((s) => s === "same")
    ? "unchanged"
    : state.includes("edited")
      ? "updated"
      : state.includes("same")
        ? "updated"
        : "installed";
  return { ok: true, action, paths, backups, export: exportLine };
}

function describe(o: Omit<InstallOutcome, "legacyRetired" | "message">, what: string): string {
  if (o.action === "refused")
    return `${what} at ${o.paths[0]} differs from this checkout's copy (edited by hand, or another version); nothing was written. Run again with --force to replace it (edited files are kept as .bak).`;
  if (o.action === "unchanged") return `${what} is already up to date: ${o.paths[0]}`;
  return `${o.action} ${what}: ${o.paths[0]}${o.backups.length > 0 ? ` (previous files kept as ${o.backups.join(", ")})` : ""}`;
}

export function installCodexSkill(r: InstallRequest): InstallOutcome {
  const source = join(r.repo, "plugins", "codex", "skills", "skillopt-sleep", "SKILL.md");
  const o = installFiles([[source, join(r.home, ".agents", "skills", "skillopt-sleep", "SKILL.md")]], r);
  // The original installed a custom prompt here; retire it so Codex does not offer both. Only ours.
  const legacy = join(r.toolHome, "prompts", "sleep.md");
  let legacyRetired: string | null = null;
  if (o.ok && existsSync(legacy) && /skillopt/i.test(readFileSync(legacy, "utf8"))) {
    legacyRetired = freeName(`${legacy}.skillopt-legacy.bak`, r.stamp);
    renameSync(legacy, legacyRetired);
  }
  return { ...o, legacyRetired, message: describe(o, "the Codex skill") };
}

export const CURSOR_PLUGIN_FILES = [
  ".cursor-plugin/plugin.json",
  "commands/skillopt-sleep.md",
  "skills/skillopt-sleep/SKILL.md",
  "README.md",
];

export function installCursorPlugin(r: InstallRequest): InstallOutcome {
  const from = join(r.repo, "plugins", "cursor");
  const to = join(r.toolHome, "plugins", "local", "skillopt-sleep");
  const o = installFiles(
    CURSOR_PLUGIN_FILES.map((f) => [join(from, f), join(to, f)]),
    r,
  );
  return { ...o, legacyRetired: null, message: describe(o, "the Cursor plugin") };
}

async function run(f: Flags, kind: "codex" | "cursor"): Promise<number> {
  const home = homedir();
  const envHome = (kind === "codex" ? process.env.CODEX_HOME : process.env.CURSOR_HOME)?.trim();
  const req = {
    home,
    toolHome: envHome || join(home, kind === "codex" ? ".codex" : ".cursor"),
    repo: REPO_ROOT,
    force: f.force === true,
    stamp: new Date().toISOString().replace(/[-:.]/g, ""),
  };
  const r = kind === "codex" ? installCodexSkill(req) : installCursorPlugin(req);
  if (f.json) {
    printJson(snakeKeys(r));
    return r.ok ? 0 : 1;
  }
  const out = [`[install] ${say(r.message)}`];
  if (r.legacyRetired) out.push(`[install] retired the old Codex prompt -> ${say(r.legacyRetired)}`);
  if (r.ok) {
    out.push("[install] add this to your shell profile so the integration finds SkillOpt:", `    ${say(r.export)}`);
    out.push(
      kind === "codex"
        ? 'Then ask Codex: "Use the skillopt-sleep skill to show the sleep status of this project."'
        : "Then restart Cursor and try: /skillopt-sleep status",
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
  return r.ok ? 0 : 1;
}

export const runSleepInstallCodexSkill = (f: Flags) => run(f, "codex");
export const runSleepInstallCursorPlugin = (f: Flags) => run(f, "cursor");

/**
 * `sleep install-codex-skill` (spec D.15, the Codex integration): copies this checkout's
 * `plugins/codex/skills/skillopt-sleep/SKILL.md` to `~/.agents/skills/skillopt-sleep/SKILL.md`, where
 * Codex finds user skills; retires the old `$CODEX_HOME/prompts/sleep.md` entry point when it is ours;
 * prints the `SKILLOPT_SLEEP_REPO` export. A different installed file is the user's edit: it is kept
 * unless `--force`, which saves it as a backup first. Exit 0 installed or already current, 1 refused.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { snakeKeys } from "../../lib/sleep";
import { printJson, say, type Flags } from "./sleep-args";
import { REPO_ROOT } from "./sleep-schedule";

export interface CodexInstallRequest {
  home: string;
  /** `$CODEX_HOME`, default `<home>/.codex`. */
  codexHome: string;
  repo: string;
  force: boolean;
  /** Suffix of backup names (a timestamp from the caller). */
  stamp: string;
}

export interface CodexInstallOutcome {
  ok: boolean;
  action: "installed" | "updated" | "unchanged" | "refused";
  skillPath: string;
  backup: string | null;
  legacyRetired: string | null;
  message: string;
  export: string;
}

function freeName(base: string, stamp: string): string {
  return existsSync(base) ? `${base.replace(/\.bak$/, "")}.${stamp}.bak` : base;
}

export function installCodexSkill(r: CodexInstallRequest): CodexInstallOutcome {
  const source = join(r.repo, "plugins", "codex", "skills", "skillopt-sleep", "SKILL.md");
  const text = readFileSync(source, "utf8");
  const skillPath = join(r.home, ".agents", "skills", "skillopt-sleep", "SKILL.md");
  const exportLine = `export SKILLOPT_SLEEP_REPO=${JSON.stringify(r.repo)}`;
  let backup: string | null = null;
  let action: CodexInstallOutcome["action"] = "installed";
  if (existsSync(skillPath)) {
    if (readFileSync(skillPath, "utf8") === text) action = "unchanged";
    else if (!r.force) {
      return { ok: false, action: "refused", skillPath, backup: null, legacyRetired: null, export: exportLine, message: `${skillPath} differs from this checkout's skill (edited by hand, or from another version); left as it is. Run again with --force to replace it (the current file is kept as a backup).` };
    } else {
      backup = freeName(`${skillPath}.bak`, r.stamp);
      copyFileSync(skillPath, backup);
      action = "updated";
    }
  }
  if (action !== "unchanged") {
    mkdirSync(dirname(skillPath), { recursive: true });
    const tmp = `${skillPath}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, skillPath);
  }
  // The original installed a custom prompt here; retire it so Codex does not offer both. Only ours.
  const legacy = join(r.codexHome, "prompts", "sleep.md");
  let legacyRetired: string | null = null;
  if (existsSync(legacy) && /skillopt/i.test(readFileSync(legacy, "utf8"))) {
    legacyRetired = freeName(`${legacy}.skillopt-legacy.bak`, r.stamp);
    renameSync(legacy, legacyRetired);
  }
  const what = action === "unchanged" ? `already up to date: ${skillPath}` : `${action} ${skillPath}${backup ? ` (previous file kept as ${backup})` : ""}`;
  return { ok: true, action, skillPath, backup, legacyRetired, export: exportLine, message: what };
}

export async function runSleepInstallCodexSkill(f: Flags): Promise<number> {
  const home = homedir();
  const r = installCodexSkill({ home, codexHome: process.env.CODEX_HOME?.trim() || join(home, ".codex"), repo: REPO_ROOT, force: f.force === true, stamp: new Date().toISOString().replace(/[-:.]/g, "") });
  if (f.json) {
    printJson(snakeKeys(r));
    return r.ok ? 0 : 1;
  }
  const out = [`[install] ${say(r.message)}`];
  if (r.legacyRetired) out.push(`[install] retired the old Codex prompt -> ${say(r.legacyRetired)}`);
  if (r.ok) out.push("[install] add this to your shell profile so the skill finds SkillOpt:", `    ${say(r.export)}`, 'Then ask Codex: "Use the skillopt-sleep skill to show the sleep status of this project."');
  process.stdout.write(`${out.join("\n")}\n`);
  return r.ok ? 0 : 1;
}

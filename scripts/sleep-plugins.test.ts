import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CURSOR_PLUGIN_FILES, installCodexSkill, installCursorPlugin } from "./cli/sleep-install";

const root = join(import.meta.dirname, "..");
const plugin = join(root, "plugins", "claude-code");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-sleep-plugins-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const fresh = (name: string) => {
  const d = join(tmp, name);
  mkdirSync(d, { recursive: true });
  return d;
};

/** YAML front matter as key → raw value (the fields Claude Code and Codex read are single-line). */
function frontMatter(path: string): Record<string, string> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(path, "utf8"));
  expect(m, `${path} has front matter`).not.toBeNull();
  return Object.fromEntries(
    m![1]!.split("\n").map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
  );
}

describe("Claude Code plugin folder", () => {
  it("plugin.json and marketplace.json are valid JSON with the fields Claude Code reads", () => {
    const manifest = JSON.parse(readFileSync(join(plugin, ".claude-plugin", "plugin.json"), "utf8"));
    expect(manifest.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(manifest.name).toBe("skillopt-sleep");
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(typeof manifest.description).toBe("string");
    expect(typeof manifest.author.name).toBe("string");
    const market = JSON.parse(readFileSync(join(plugin, ".claude-plugin", "marketplace.json"), "utf8"));
    expect(market.plugins).toEqual([expect.objectContaining({ name: manifest.name, source: "./" })]);
  });

  it("ships the two commands and the workflow skill with their front matter", () => {
    expect(readdirSync(join(plugin, "commands")).sort()).toEqual(["skillopt-sleep-handoff.md", "skillopt-sleep.md"]);
    for (const c of ["skillopt-sleep.md", "skillopt-sleep-handoff.md"]) {
      const fm = frontMatter(join(plugin, "commands", c));
      expect(fm.description!.length).toBeGreaterThan(20);
      expect(fm["allowed-tools"]).toMatch(/Bash/);
      expect(readFileSync(join(plugin, "commands", c), "utf8")).toContain("${CLAUDE_PLUGIN_ROOT}/scripts/sleep.sh");
    }
    for (const skill of [
      join(plugin, "skills", "skillopt-sleep", "SKILL.md"),
      join(root, "plugins", "codex", "skills", "skillopt-sleep", "SKILL.md"),
    ]) {
      const fm = frontMatter(skill);
      expect(fm.name).toBe("skillopt-sleep");
      expect(fm.description!.length).toBeGreaterThan(40);
    }
  });

  it("registers one async SessionEnd command hook whose script exists and is executable", () => {
    const hooks = JSON.parse(readFileSync(join(plugin, "hooks", "hooks.json"), "utf8")).hooks;
    expect(Object.keys(hooks)).toEqual(["SessionEnd"]);
    const [entry] = hooks.SessionEnd[0].hooks;
    expect(entry).toEqual({ type: "command", command: '"${CLAUDE_PLUGIN_ROOT}/hooks/session-end.sh"', async: true });
    const script = join(plugin, "hooks", "session-end.sh");
    expect(statSync(script).mode & 0o111).not.toBe(0);
    expect(statSync(join(plugin, "scripts", "sleep.sh")).mode & 0o111).not.toBe(0);
  });
});

describe("the plugin's runner", () => {
  const runner = join(plugin, "scripts", "sleep.sh");
  it("runs sleep from the checkout ($SKILLOPT_SLEEP_REPO) and names the variable when there is none", () => {
    const home = fresh("runner-home");
    const project = fresh("runner-project");
    const env = { HOME: home, PATH: process.env.PATH ?? "", SKILLOPT_SLEEP_REPO: root } as unknown as NodeJS.ProcessEnv;
    const r = spawnSync(runner, ["status", "--project", project, "--json"], { cwd: project, env, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ night: 0, project });
    const bad = spawnSync(runner, ["status"], {
      cwd: project,
      env: { ...env, SKILLOPT_SLEEP_REPO: project },
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Set SKILLOPT_SLEEP_REPO/);
  }, 60_000);
});

describe("the SessionEnd hook", () => {
  const hook = join(plugin, "hooks", "session-end.sh");
  const run = (home: string, cwd: string) =>
    spawnSync(hook, [], {
      cwd,
      env: { HOME: home, PATH: "/usr/bin:/bin", CLAUDE_PLUGIN_ROOT: plugin } as unknown as NodeJS.ProcessEnv,
      input: JSON.stringify({
        hook_event_name: "SessionEnd",
        session_id: "abc",
        transcript_path: "/secret/path.jsonl",
        cwd,
        reason: "exit",
      }),
      encoding: "utf8",
    });

  it("appends exactly one '<UTC time>\\t<cwd>' line per session and writes nothing else", () => {
    const home = fresh("hook-home");
    const work = fresh("work dir");
    const first = run(home, work);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe("");
    expect(first.stderr).toBe("");
    const log = join(home, ".skillopt-sleep", "session-end.log");
    expect(readFileSync(log, "utf8")).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\t${work.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n$`),
    );
    run(home, work);
    expect(readFileSync(log, "utf8").split("\n")).toHaveLength(3);
    expect(readdirSync(home)).toEqual([".skillopt-sleep"]);
    expect(readdirSync(join(home, ".skillopt-sleep"))).toEqual(["session-end.log"]);
    expect(readFileSync(log, "utf8")).not.toContain("secret");
  });

  it("keeps a folder name with a tab or a newline on one line, and never fails without a usable home", () => {
    const home = fresh("hook-home-2");
    const odd = fresh("odd\tname\nx");
    expect(run(home, odd).status).toBe(0);
    const lines = readFileSync(join(home, ".skillopt-sleep", "session-end.log"), "utf8").split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split("\t")).toHaveLength(2);
    const blocked = join(fresh("hook-home-3"), "file");
    writeFileSync(blocked, "not a folder");
    expect(run(blocked, odd).status).toBe(0);
  });
});

describe("install-codex-skill", () => {
  const source = readFileSync(join(root, "plugins", "codex", "skills", "skillopt-sleep", "SKILL.md"), "utf8");
  const req = (home: string, force = false) => ({
    home,
    toolHome: join(home, ".codex"),
    repo: root,
    force,
    stamp: "20260101T000000",
  });

  it("copies the skill to ~/.agents/skills/skillopt-sleep/SKILL.md and is idempotent", () => {
    const home = fresh("codex-1");
    const r = installCodexSkill(req(home));
    expect(r).toMatchObject({
      ok: true,
      action: "installed",
      backups: [],
      export: `export SKILLOPT_SLEEP_REPO=${JSON.stringify(root)}`,
    });
    expect(r.paths).toEqual([join(home, ".agents", "skills", "skillopt-sleep", "SKILL.md")]);
    expect(readFileSync(r.paths[0]!, "utf8")).toBe(source);
    expect(installCodexSkill(req(home))).toMatchObject({ ok: true, action: "unchanged" });
    expect(readdirSync(join(home, ".agents", "skills", "skillopt-sleep"))).toEqual(["SKILL.md"]);
  });

  it("refuses to overwrite a changed file without --force; --force keeps the old one as a backup", () => {
    const home = fresh("codex-2");
    const skillPath = installCodexSkill(req(home)).paths[0]!;
    writeFileSync(skillPath, "my own notes\n");
    const refused = installCodexSkill(req(home));
    expect(refused).toMatchObject({ ok: false, action: "refused" });
    expect(refused.message).toMatch(/--force/);
    expect(readFileSync(skillPath, "utf8")).toBe("my own notes\n");
    const forced = installCodexSkill(req(home, true));
    expect(forced).toMatchObject({ ok: true, action: "updated", backups: [`${skillPath}.bak`] });
    expect(readFileSync(`${skillPath}.bak`, "utf8")).toBe("my own notes\n");
    expect(readFileSync(skillPath, "utf8")).toBe(source);
  });

  it("retires the old prompts/sleep.md only when it is SkillOpt's", () => {
    const home = fresh("codex-3");
    const legacy = join(home, ".codex", "prompts", "sleep.md");
    mkdirSync(join(home, ".codex", "prompts"), { recursive: true });
    writeFileSync(legacy, "Run my own sleep tracker.\n");
    expect(installCodexSkill(req(home)).legacyRetired).toBeNull();
    expect(existsSync(legacy)).toBe(true);
    writeFileSync(legacy, "Run SkillOpt-Sleep status.\n");
    const r = installCodexSkill(req(home));
    expect(r.legacyRetired).toBe(`${legacy}.skillopt-legacy.bak`);
    expect(existsSync(legacy)).toBe(false);
  });

  it("the CLI command installs under $HOME and exits 1 when it refuses", () => {
    const home = fresh("codex-cli");
    const cli = () =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "sleep", "install-codex-skill", "--json"], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, HOME: home, CODEX_HOME: "" },
      });
    const r = cli();
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      action: "installed",
      paths: [join(home, ".agents", "skills", "skillopt-sleep", "SKILL.md")],
    });
    writeFileSync(join(home, ".agents", "skills", "skillopt-sleep", "SKILL.md"), "edited\n");
    expect(cli().status).toBe(1);
  }, 60_000);
});

describe("install-cursor-plugin", () => {
  it("copies the plugin folder to $CURSOR_HOME/plugins/local/skillopt-sleep and refuses an edited copy without --force", () => {
    const home = fresh("cursor-1");
    const req = (force = false) => ({
      home,
      toolHome: join(home, ".cursor"),
      repo: root,
      force,
      stamp: "20260101T000000",
    });
    const target = join(home, ".cursor", "plugins", "local", "skillopt-sleep");
    expect(installCursorPlugin(req())).toMatchObject({ ok: true, action: "installed" });
    for (const f of CURSOR_PLUGIN_FILES)
      expect(readFileSync(join(target, f), "utf8")).toBe(readFileSync(join(root, "plugins", "cursor", f), "utf8"));
    const manifest = JSON.parse(readFileSync(join(target, ".cursor-plugin", "plugin.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "skillopt-sleep", commands: "./commands/", skills: "./skills/" });
    expect(installCursorPlugin(req()).action).toBe("unchanged");
    writeFileSync(join(target, "README.md"), "mine\n");
    const before = readFileSync(join(target, "commands", "skillopt-sleep.md"), "utf8");
    expect(installCursorPlugin(req())).toMatchObject({ ok: false, action: "refused" });
    expect(readFileSync(join(target, "README.md"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(target, "commands", "skillopt-sleep.md"), "utf8")).toBe(before);
    expect(installCursorPlugin(req(true))).toMatchObject({
      ok: true,
      action: "updated",
      backups: [join(target, "README.md.bak")],
    });
  });
});

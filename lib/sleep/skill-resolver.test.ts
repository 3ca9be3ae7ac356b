import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { normaliseSkillName, resolveSkill, skillSearchRoots } from "./skill-resolver";
import { removeTempDirs, sandbox, testConfig, writeText } from "./test-helpers";

afterAll(removeTempDirs);

describe("skill resolver", () => {
  it("accepts one plain folder name only", () => {
    expect(normaliseSkillName(" git ")).toBe("git");
    for (const bad of ["", "..", "a/b", "a\\b", "/abs", "~x", "C:x", "a\u0000b", 3])
      expect(normaliseSkillName(bad)).toBe("");
  });

  it("searches the project's agent folders, Claude home, extra roots and the newest version of each plugin", () => {
    const s = sandbox();
    const cfg = testConfig(s, { skill_roots: [join(s.root, "extra")] });
    for (const d of [join(s.project, ".claude", "skills"), join(s.home, ".claude", "skills"), join(s.root, "extra")])
      mkdirSync(d, { recursive: true });
    const plugin = join(s.home, ".claude", "plugins", "cache", "market", "tools");
    mkdirSync(join(plugin, "1.9.0", "skills"), { recursive: true });
    mkdirSync(join(plugin, "1.10.0", "skills"), { recursive: true });
    mkdirSync(join(plugin, "2.0.0-beta", "skills"), { recursive: true });
    expect(skillSearchRoots(cfg)).toEqual([
      join(s.project, ".claude", "skills"),
      join(s.home, ".claude", "skills"),
      join(s.root, "extra"),
      join(plugin, "2.0.0-beta", "skills"),
    ]);
  });

  it("found, missing, ambiguous and rejected are distinct; a link leaving its root is not followed", () => {
    const s = sandbox();
    const a = join(s.root, "a");
    const b = join(s.root, "b");
    const only = writeText(join(a, "git", "SKILL.md"), "x");
    writeText(join(a, "docs", "SKILL.md"), "x");
    writeText(join(b, "docs", "SKILL.md"), "y");
    expect(resolveSkill("git", [a, b])).toEqual({ ok: true, name: "git", path: only });
    expect(resolveSkill("nope", [a, b])).toMatchObject({ ok: false, status: "missing" });
    expect(resolveSkill("docs", [a, b])).toMatchObject({ ok: false, status: "ambiguous" });
    expect(resolveSkill("../a", [a])).toMatchObject({ ok: false, status: "rejected" });
    writeText(join(s.root, "outside", "SKILL.md"), "z");
    symlinkSync(join(s.root, "outside"), join(b, "escape"));
    expect(resolveSkill("escape", [b])).toMatchObject({ ok: false, status: "missing" });
  });
});

import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { adoptNight } from "../adopt-night";
import { sha256Hex } from "../fs-safe";
import { removeTempDirs, sandbox, writeText } from "../test-helpers";
import { emptyReport } from "../types";
import { adoptManaged, adoptSkills } from "./adopt";
import { reserveStagingDir, StagingError } from "./root";
import { writeStaging } from "./write";

afterAll(removeTempDirs);
const T = Date.UTC(2024, 4, 1, 3, 17, 0);

/** A project with a live skill and memory, and a night staging new versions of both (and optionally a per-skill row). */
function night(o: { withSkillRow?: boolean; liveSkill?: string | null } = {}) {
  const s = sandbox();
  const skillPath = join(s.home, ".claude", "skills", "managed", "SKILL.md");
  if (o.liveSkill !== null) writeText(skillPath, o.liveSkill ?? "old skill\n");
  const memoryPath = writeText(join(s.project, "CLAUDE.md"), "old memory\n");
  const pin = (p: string) => (existsSync(p) ? sha256Hex(readFileSync(p)) : "");
  const root = join(s.project, ".agents", "skills");
  const otherPath = writeText(join(root, "git", "SKILL.md"), "old git skill\n");
  const dir = writeStaging({
    dir: reserveStagingDir(s.project, T),
    report: { ...emptyReport(1, s.project, ""), accepted: true },
    reportMd: "# r\n",
    diagnostics: {},
    liveSkillPath: skillPath,
    liveMemoryPath: memoryPath,
    skill: { proposed: "new skill\n", livePath: skillPath, liveRealpath: skillPath, liveSha256: pin(skillPath) },
    memory: { proposed: "new memory\n", livePath: memoryPath, liveRealpath: memoryPath, liveSha256: pin(memoryPath) },
    skillProposals: o.withSkillRow
      ? [{ skillName: "git", proposedSkill: "new git skill\n", livePath: otherPath, liveSha256: pin(otherPath) }]
      : [],
    skillRoots: o.withSkillRow ? [root] : [],
  });
  return { ...s, dir, skillPath, memoryPath, otherPath };
}

describe("adopt the managed pair", () => {
  it("replaces both live files, keeps backups and receipts, and refuses a second adoption of the night", () => {
    const n = night();
    expect(adoptManaged(n.dir)).toEqual([n.skillPath, n.memoryPath]);
    expect(readFileSync(n.skillPath, "utf8")).toBe("new skill\n");
    expect(readFileSync(n.memoryPath, "utf8")).toBe("new memory\n");
    expect(readFileSync(join(n.dir, "backup", "SKILL.md"), "utf8")).toBe("old skill\n");
    expect(readFileSync(join(n.dir, "backup", "CLAUDE.md"), "utf8")).toBe("old memory\n");
    const receipts = JSON.parse(readFileSync(join(n.dir, "adopted_legacy.json"), "utf8"));
    expect(receipts.map((r: { target: string }) => r.target)).toEqual(["skill", "memory"]);
    expect(existsSync(join(n.dir, ".adopt-transaction.json"))).toBe(false);
    expect(() => adoptManaged(n.dir)).toThrow(/already adopted/);
  });

  it("creates a managed skill that did not exist yet (no backup)", () => {
    const n = night({ liveSkill: null });
    adoptManaged(n.dir);
    expect(readFileSync(n.skillPath, "utf8")).toBe("new skill\n");
    expect(existsSync(join(n.dir, "backup", "SKILL.md"))).toBe(false);
  });

  it("refuses when the live file changed since staging, and changes nothing", () => {
    const n = night();
    writeFileSync(n.memoryPath, "edited by hand\n");
    expect(() => adoptManaged(n.dir)).toThrow(/memory .* changed since staging; discard and restage/);
    expect(readFileSync(n.skillPath, "utf8")).toBe("old skill\n");
    expect(readFileSync(n.memoryPath, "utf8")).toBe("edited by hand\n");
  });

  it("refuses a live file that became a symbolic link, and a proposal edited after staging", () => {
    const n = night();
    const target = writeText(join(n.root, "elsewhere.md"), "old memory\n");
    rmSync(n.memoryPath);
    symlinkSync(target, n.memoryPath);
    expect(() => adoptManaged(n.dir)).toThrow(/symbolic link/);
    expect(readFileSync(target, "utf8")).toBe("old memory\n");
    const m = night();
    writeFileSync(join(m.dir, "proposed_SKILL.md"), "tampered\n");
    expect(() => adoptManaged(m.dir)).toThrow(/does not match its sha256/);
  });

  it("refuses while another adoption holds a target's lock, and changes nothing", () => {
    const n = night();
    const lock = join(n.project, ".skillopt-sleep", "locks", `${sha256Hex(n.memoryPath).slice(0, 24)}.lock`);
    writeText(lock, "busy\n");
    expect(() => adoptManaged(n.dir)).toThrow(/another adoption holds/);
    expect(readFileSync(n.skillPath, "utf8")).toBe("old skill\n");
    rmSync(lock);
    expect(adoptManaged(n.dir)).toHaveLength(2);
    expect(existsSync(join(n.project, ".skillopt-sleep", "locks", `${sha256Hex(n.skillPath).slice(0, 24)}.lock`))).toBe(
      false,
    );
  });

  it("completes an adoption interrupted after its backups", () => {
    const n = night();
    const pinSkill = sha256Hex("old skill\n");
    mkdirSync(join(n.dir, "backup"));
    writeFileSync(join(n.dir, "backup", "SKILL.md"), "old skill\n");
    writeFileSync(
      join(n.dir, ".adopt-transaction.json"),
      JSON.stringify({
        receipts: "adopted_legacy.json",
        targets: [
          {
            key: "skill",
            live_path: n.skillPath,
            proposed_file: join(n.dir, "proposed_SKILL.md"),
            sha256_before: pinSkill,
            sha256_after: sha256Hex("new skill\n"),
            backup_path: join(n.dir, "backup", "SKILL.md"),
          },
        ],
      }),
    );
    expect(() => adoptManaged(n.dir)).toThrow(/already adopted/);
    expect(readFileSync(n.skillPath, "utf8")).toBe("new skill\n");
    expect(existsSync(join(n.dir, ".adopt-transaction.json"))).toBe(false);
  });
});

describe("adopt per-skill proposals and the selection rules", () => {
  it("a fan-out night needs a selection; --skill adopts one row; --legacy the managed pair", () => {
    const n = night({ withSkillRow: true });
    const none = adoptNight({ project: n.project });
    expect(none).toMatchObject({
      ok: false,
      code: 2,
      error: "selection_required",
      availableSkills: [{ skillName: "git", liveSkillPath: n.otherPath }],
    });
    expect(adoptNight({ project: n.project, skills: ["git"], legacy: true })).toMatchObject({
      ok: false,
      code: 2,
      error: "invalid_selection",
    });
    expect(adoptNight({ project: n.project, skills: ["nope"] })).toMatchObject({
      ok: false,
      code: 2,
      error: "adoption_refused",
    });
    expect(adoptNight({ project: n.project, skills: ["git"] })).toMatchObject({
      ok: true,
      mode: "skills",
      updatedPaths: [n.otherPath],
    });
    expect(readFileSync(n.otherPath, "utf8")).toBe("new git skill\n");
    expect(readFileSync(join(n.dir, "backup", "skills", "git", "SKILL.md"), "utf8")).toBe("old git skill\n");
    expect(adoptNight({ project: n.project, legacy: true })).toMatchObject({
      ok: true,
      mode: "legacy",
      updatedPaths: [n.skillPath, n.memoryPath],
    });
    expect(adoptNight({ project: n.project, allSkills: true })).toMatchObject({ ok: true, updatedPaths: [] });
  });

  it("nothing staged is exit 1; a skill row outside its recorded root is refused", () => {
    expect(adoptNight({ project: sandbox().project })).toMatchObject({ ok: false, code: 1, error: "no_staging" });
    const n = night({ withSkillRow: true });
    const manifest = JSON.parse(readFileSync(join(n.dir, "manifest.json"), "utf8"));
    manifest.skill_roots = [join(n.root, "other-root")];
    mkdirSync(join(n.root, "other-root"));
    writeFileSync(join(n.dir, "manifest.json"), JSON.stringify(manifest));
    expect(() => adoptSkills(n.dir, ["git"])).toThrow(StagingError);
  });
});

import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, sandbox, tempDir, writeText } from "../test-helpers";
import { checkDiscardable, removeStagedNight } from "./discard";
import { publishLatest, reserveStagingDir, StagingError, stagingRoot } from "./root";

afterAll(removeTempDirs);
const T = Date.UTC(2024, 4, 1, 3, 17, 0);

function stagedNight(project: string, at = T): string {
  const dir = reserveStagingDir(project, at);
  writeText(join(dir, "proposed_SKILL.md"), "proposal\n");
  writeText(join(dir, "manifest.json"), "{}\n");
  return dir;
}

describe("removeStagedNight", () => {
  it("removes the night's folder and nothing else: the live skill, memory and other nights stay", () => {
    const { project } = sandbox();
    const live = writeText(join(project, ".claude", "skills", "s", "SKILL.md"), "live skill\n");
    const memory = writeText(join(project, "CLAUDE.md"), "memory\n");
    const older = stagedNight(project, T - 60_000);
    const dir = stagedNight(project);
    expect(removeStagedNight(project, dir)).toEqual({ removed: true });
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(older)).toBe(true);
    expect(readFileSync(live, "utf8")).toBe("live skill\n");
    expect(readFileSync(memory, "utf8")).toBe("memory\n");
  });

  it("drops the latest-night pointer only when it named the removed night", () => {
    const { project } = sandbox();
    const a = stagedNight(project, T - 60_000);
    const b = stagedNight(project);
    publishLatest(b);
    removeStagedNight(project, a);
    expect(readFileSync(join(stagingRoot(project), ".latest"), "utf8").trim()).toBe(basename(b));
    removeStagedNight(project, b);
    expect(existsSync(join(stagingRoot(project), ".latest"))).toBe(false);
  });

  it("is harmless when the folder is already gone", () => {
    const { project } = sandbox();
    const dir = stagedNight(project);
    removeStagedNight(project, dir);
    expect(removeStagedNight(project, dir)).toEqual({ removed: false });
  });

  it("refuses a folder outside the project's staging root, naming it, and removes nothing", () => {
    const { project } = sandbox();
    const elsewhere = tempDir();
    const victim = writeText(join(elsewhere, "20240501-031700", "keep.txt"), "keep\n");
    expect(() => removeStagedNight(project, join(elsewhere, "20240501-031700"))).toThrow(StagingError);
    expect(() => removeStagedNight(project, join(stagingRoot(project), "..", ".."))).toThrow(/not a night folder/);
    expect(() => removeStagedNight(project, join(stagingRoot(project), "notes"))).toThrow(/not a night folder/);
    expect(existsSync(victim)).toBe(true);
  });

  it("refuses a night folder that is a symbolic link, and leaves its target alone", () => {
    const { project } = sandbox();
    const target = tempDir();
    writeFileSync(join(target, "precious.txt"), "precious\n");
    mkdirSync(stagingRoot(project), { recursive: true });
    const link = join(stagingRoot(project), "20240501-031700");
    symlinkSync(target, link);
    expect(() => removeStagedNight(project, link)).toThrow(/symbolic link; nothing removed/);
    expect(readFileSync(join(target, "precious.txt"), "utf8")).toBe("precious\n");
  });

  it("refuses a staging root that is a symbolic link", () => {
    const { project } = sandbox();
    const dir = stagedNight(project);
    const real = tempDir();
    const moved = join(real, "staging");
    renameSync(stagingRoot(project), moved);
    symlinkSync(moved, stagingRoot(project));
    expect(() => checkDiscardable(project, dir)).toThrow(/symbolic link/);
    expect(existsSync(join(moved, basename(dir)))).toBe(true);
  });

  it("unlinks a symbolic link inside the night folder without following it", () => {
    const { project } = sandbox();
    const dir = stagedNight(project);
    const outside = writeText(join(tempDir(), "outside.md"), "outside\n");
    symlinkSync(outside, join(dir, "link.md"));
    removeStagedNight(project, dir);
    expect(readFileSync(outside, "utf8")).toBe("outside\n");
  });
});

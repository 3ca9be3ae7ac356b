import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blameRun } from "./cli/blame";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-cli-blame-"));
const run = join(tmp, "run");
const cli = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });

beforeAll(() => {
  const r = cli(["train", "--config", "configs/searchqa/sample.yaml", "--out", run, "--no-db"]);
  if (r.status !== 0) throw new Error(r.stderr);
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("skillopt blame", () => {
  it("attributes every line of a sample run's best skill, and writes BLAME.md", () => {
    const best = readFileSync(join(run, "best_skill.md"), "utf8").replace(/\n$/, "").split("\n");
    const lines = blameRun(run);
    expect(lines.map((l) => l.text)).toEqual(best);
    const kinds = new Set(lines.map((l) => l.origin.kind));
    expect(kinds).toContain("seed");
    expect(kinds).toContain("step");
    // Every text line a step added is matched to the applied edit that wrote it.
    const stepText = lines.filter((l) => l.origin.kind === "step" && l.text.trim() !== "");
    expect(stepText.length).toBeGreaterThan(3);
    for (const l of stepText) expect(l.origin.kind === "step" && l.origin.edit, l.text).toBeTruthy();
    const r = cli(["blame", run, "--write"]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(run, "BLAME.md"), "utf8")).toBe(r.stdout);
    expect(r.stdout).toMatch(
      /\| \d+ \| .+ \| step \d+ \(epoch \d, accept_new_best\), edit \d (insert_after|replace|insert_before|append) from (failure|success), support \d+: /,
    );
  });

  it("a folder that is not a finished run is a clear error", () => {
    const r = cli(["blame", tmp]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/is not a finished run folder \(needs skills\/skill_v0000\.md and best_skill\.md\)/);
    expect(existsSync(join(tmp, "BLAME.md"))).toBe(false);
  });
});

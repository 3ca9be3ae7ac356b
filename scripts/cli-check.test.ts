import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkLeakage, findingCount } from "./cli/check";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-cli-check-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "check", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });

describe("skillopt check", () => {
  it.each(["searchqa", "livemath", "docvqa", "alfworld", "custom"])("the %s sample reports no leakage", (name) => {
    const r = checkLeakage({ config: `configs/${name}/sample.yaml`, skills: [], overrides: [] }, root);
    expect(r.duplicates).toEqual([]);
    expect(r.skills.flatMap((s) => s.lines)).toEqual([]);
  });

  it("templated variants across selection and test are found (SpreadsheetBench's sample has some)", () => {
    const r = checkLeakage({ config: "configs/spreadsheetbench/sample.yaml", skills: [], overrides: [] }, root);
    expect(r.duplicates).toContainEqual(
      expect.objectContaining({
        a: { id: "ssb-019", split: "val" },
        b: { id: "ssb-031", split: "test" },
        exact: false,
      }),
    );
  });

  it("a planted duplicate and a skill that memorised a gold answer are found, named, and exit 1", () => {
    const dir = join(tmp, "splits");
    const QUESTIONS = [
      "Which lantern colour opens the spring festival in Brell?",
      "How many bridges cross the canal between the two mills?",
      "Who signed the charter that founded the river guild?",
      "What year did the northern lighthouse first burn oil?",
      "Which street holds the oldest bakery in the harbour quarter?",
      "What is the toll for a cart on the east road today?",
      "Who painted the mural above the council chamber doors?",
    ];
    const row = (id: string, n: number) => ({
      id,
      prompt: QUESTIONS[n]!,
      gold: `code-${n * 13 + 100}`,
      passage: "The town records of Brell.",
    });
    const splits = {
      train: [row("t0", 0), row("t1", 1), row("t2", 2)],
      val: [row("v0", 3), row("v-dup", 0)],
      test: [row("s0", 4), row("s1", 5)],
    };
    for (const [name, items] of Object.entries(splits)) {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, "items.json"), JSON.stringify(items));
    }
    const skill = join(tmp, "best_skill.md");
    writeFileSync(
      skill,
      "# Skill\n- Always answer in one line.\n- For the harbour quarter, the answer is code-152.\n- Train golds like code-113 are not evaluation data.\n",
    );
    const r = cli([
      "--config",
      "configs/custom/sample.yaml",
      "--skill",
      skill,
      "--skill",
      join(tmp, ".", "best_skill.md"),
      "--cfg-options",
      "env.split_mode=split_dir",
      `env.split_dir=${dir}`,
      "env.id_field=id",
    ]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain("exact: train t0 ↔ selection v-dup");
    expect(r.stdout).toMatch(/best_skill\.md: 1 line\(s\) holding selection or test data/);
    expect(r.stdout).toContain('line 3: gold answer "code-152" of test item s0');
    // The same file named twice is checked once: 1 duplicate + 1 memorised line, not 1 + 2.
    expect(r.stdout.match(/best_skill\.md: /g)).toHaveLength(1);
    expect(r.stdout).toMatch(/leakage found: 2 finding\(s\)/);
    const report = checkLeakage(
      {
        config: "configs/custom/sample.yaml",
        skills: [],
        overrides: ["env.split_mode=split_dir", `env.split_dir=${dir}`, "env.id_field=id"],
      },
      root,
    );
    expect(report.items).toEqual({ train: 3, val: 2, test: 2, compared: 7 });
    const twice = checkLeakage(
      {
        config: "configs/custom/sample.yaml",
        skills: [skill, skill],
        overrides: ["env.split_mode=split_dir", `env.split_dir=${dir}`, "env.id_field=id"],
      },
      root,
    );
    expect(twice.skills.map((s) => s.path)).toHaveLength(2);
    expect(findingCount(twice)).toBe(2);
  }, 90_000);

  it("bad input names the flag", () => {
    const base = { config: "configs/searchqa/sample.yaml", skills: [], overrides: [] };
    expect(() => checkLeakage({ ...base, threshold: "2" }, root)).toThrow(/--threshold must be a number in \(0, 1\]/);
    expect(() => checkLeakage({ ...base, config: undefined }, root)).toThrow(/--config FILE is required/);
    expect(() => checkLeakage({ ...base, skills: [join(tmp, "nope.md")] }, root)).toThrow(/--skill/);
  });
});

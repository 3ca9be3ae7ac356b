import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../../config";
import { checkSampleIntegrity } from "../common/sample-integrity";
import { loadBenchmarkSplits } from "../registry";
import { scoreExact } from "./metrics";
import { customSimRules } from "./descriptor";
import { customBenchmark } from "./index";
import { CUSTOM_SYSTEM_BASE } from "./prompt";

const out = mkdtempSync(join(tmpdir(), "custom-sample-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const { config } = loadRunConfig("configs/custom/sample.yaml", [`env.split_output_dir=${out}`]);
const splits = loadBenchmarkSplits(config, process.cwd());
const rules = customSimRules();
const initial = readFileSync(customBenchmark.initialSkillPath, "utf8");

describe("custom example (configs/custom/example.jsonl)", () => {
  it("splits 40 mapped rows 20/10/10 with the preset's ratio and seed", () => {
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([20, 10, 10]);
    const all = [...splits.train, ...splits.val, ...splits.test];
    for (const item of all) {
      expect(Object.keys(item).sort(), item.id).toEqual(["answers", "context", "id", "question", "sim"]);
      expect((item.context as string).length, item.id).toBeGreaterThan(20);
    }
  });

  it("passes every integrity check (correct → 1, wrong → 0, coverage, detect/conflict hygiene)", () => {
    const problems = checkSampleIntegrity({
      rules,
      splits,
      initialSkill: initial,
      systemPrompt: CUSTOM_SYSTEM_BASE,
      score: (item, answer) => scoreExact(answer, item.answers as string[]).hard,
    });
    expect(problems).toEqual([]);
  });

  it("has five real rules and two harmful distractors, and about 10% of items need none", () => {
    expect(rules.filter((r) => !r.harmful).map((r) => r.id)).toEqual([
      "bare_answer",
      "plain_number",
      "keep_unit",
      "iso_date",
      "yes_no",
    ]);
    expect(rules.filter((r) => r.harmful)).toHaveLength(2);
    const all = [...splits.train, ...splits.val, ...splits.test];
    expect(all.filter((i) => (i.sim as { needs: string[] }).needs.length === 0)).toHaveLength(4);
  });

  it("refuses split_mode sample with a message that says what to do", () => {
    expect(() => customBenchmark.sample()).toThrow(/no built-in sample; set env.split_mode ratio and env.data_path/);
  });
});

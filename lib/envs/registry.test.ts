import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { normaliseQuestion } from "../contracts/sim";
import { BENCHMARK_NAMES } from "./catalog";
import { checkSampleIntegrity } from "./common/sample-integrity";
import { createEnvironment, initialSkillPath, listBenchmarks, loadBenchmarkSplits, loadSimKnowledge } from "./registry";
import { buildRunConfig } from "./test-helpers";

describe("registry", () => {
  it("creates each benchmark by canonical name or alias", () => {
    // Every benchmark of the catalog has an implementation, in menu order.
    expect(listBenchmarks()).toEqual([...BENCHMARK_NAMES]);
    expect(listBenchmarks()).toEqual([
      "searchqa",
      "livemath",
      "docvqa",
      "officeqa",
      "spreadsheetbench",
      "alfworld",
      "custom",
    ]);
    expect(createEnvironment(buildRunConfig({ name: "searchqa" })).name).toBe("searchqa");
    expect(createEnvironment(buildRunConfig({ name: "LiveMathematicianBench" })).name).toBe("livemath");
  });

  it("rejects an unknown benchmark, listing the known ones", () => {
    expect(() => createEnvironment(buildRunConfig({ name: "nope" }))).toThrow(
      "unknown benchmark 'nope'; available: searchqa, livemath, docvqa, officeqa, spreadsheetbench, alfworld, custom",
    );
  });

  it("loads the sample splits and the sim knowledge for both benchmarks", () => {
    for (const name of ["searchqa", "livemath"]) {
      const config = buildRunConfig({ name, split_mode: "sample" });
      const splits = loadBenchmarkSplits(config, "/nonexistent");
      expect(splits.train).toHaveLength(30);
      const knowledge = loadSimKnowledge(config, splits);
      expect(knowledge?.rules).toHaveLength(8);
      expect(knowledge?.byId.size).toBe(60);
      const first = splits.val[0];
      expect(knowledge?.byQuestion.get(normaliseQuestion(String(first?.question)))?.id).toBe(first?.id);
      expect(existsSync(initialSkillPath(name))).toBe(true);
    }
  });

  it("gives task types from the loaded splits", () => {
    const config = buildRunConfig({ name: "livemath", split_mode: "sample" });
    const env = createEnvironment(config, loadBenchmarkSplits(config, "/"));
    expect(env.taskTypes()).toContain("analysis");
    expect(env.taskTypes()).toEqual([...env.taskTypes()].sort());
  });
});

describe("checkSampleIntegrity", () => {
  it("reports broken annotations and rules", () => {
    const rules = [
      {
        id: "r1",
        title: "t",
        failure_type: "other",
        guidance: "say hello",
        detect: ["hello"],
        conflicts: ["goodbye"],
        section: "## A",
        harmful: false,
      },
      {
        id: "h1",
        title: "t",
        failure_type: "other",
        guidance: "be nice",
        detect: ["nice"],
        conflicts: [],
        harmful: true,
      },
    ];
    const item = (id: string, needs: string[], wrong: Record<string, string>) => ({
      id,
      question: id,
      sim: { needs, correct: "yes", wrong },
    });
    const problems = checkSampleIntegrity({
      rules,
      splits: { train: [item("a", ["r1"], { r1: "yes" }), item("b", ["zz"], {})], val: [], test: [item("a", [], {})] },
      initialSkill: "# S\n## B\n- hello there",
      systemPrompt: "",
      score: (_, answer) => (answer === "yes" ? 1 : 0),
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "rule r1: initial skill already matches detect",
        "rule r1: section '## A' is not a heading of the initial skill",
        "harmful rule h1: guidance conflicts with no real rule",
        "train/a: wrong answer for 'r1' scores above 0",
        "train/b: needs unknown or harmful rule 'zz'",
        "val: rule r1 is needed 0 time(s)",
        "test/a: duplicate id across splits",
      ]),
    );
  });
});

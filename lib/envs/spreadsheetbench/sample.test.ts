import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildSimKnowledge, type SimItemAnnotation } from "../../contracts/sim";
import type { Item } from "../../engine/types";
import { checkSampleIntegrity } from "../common/sample-integrity";
import { buildRunConfig, fakeClient } from "../test-helpers";
import { findTestCases } from "./cases";
import {
  createSpreadsheetEnv,
  SPREADSHEET_SAMPLE_DIR,
  spreadsheetBenchmark,
  spreadsheetSample,
  spreadsheetSimRules,
} from "./index";
import { normaliseSpreadsheetRow } from "./normalise";
import { SPREADSHEET_SYSTEM_BASE } from "./prompt";
import solutions from "./sample/solutions.json";
import { spreadsheetSimResponder } from "./sim";
import { TEST_VARS } from "./test-fixtures";

const splits = spreadsheetSample();
const rules = spreadsheetSimRules();
const initial = readFileSync(spreadsheetBenchmark.initialSkillPath, "utf8");
const all = [...splits.train, ...splits.val, ...splits.test];
const SOLUTIONS = solutions as Record<string, { correct: string; wrong: Record<string, string> }>;
const sim = (item: Item) => item.sim as SimItemAnnotation;
const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

describe("SpreadsheetBench sample", () => {
  it("has 16/10/10 valid items, each with one or two test cases and a script per needed rule", () => {
    expect([splits.train.length, splits.val.length, splits.test.length]).toEqual([16, 10, 10]);
    all.forEach((item, index) => {
      normaliseSpreadsheetRow(item, { file: "sample", index });
      const cases = findTestCases(`${SPREADSHEET_SAMPLE_DIR}/spreadsheet/${item.id}`);
      expect(cases.length, item.id).toBeGreaterThanOrEqual(1);
      expect(cases.length, item.id).toBeLessThanOrEqual(2);
      expect(Object.keys(SOLUTIONS[item.id]!.wrong).sort()).toEqual([...sim(item).needs].sort());
      for (const text of Object.values(sim(item).wrong)) expect(text.length, item.id).toBeGreaterThanOrEqual(12);
    });
    expect(new Set(all.map((i) => i.instruction)).size).toBe(all.length);
  });

  it("passes the rule checks (detect/conflict hygiene, sections of the seed skill, coverage per split)", () => {
    // Item scores here are the annotation's own (real scripts are checked below and by generate.py).
    const score = (item: Item, answer: string) => (answer === sim(item).correct ? 1 : 0);
    expect(
      checkSampleIntegrity({ rules, splits, initialSkill: initial, systemPrompt: SPREADSHEET_SYSTEM_BASE, score }),
    ).toEqual([]);
    expect(rules.filter((r) => r.harmful).map((r) => r.id)).toEqual(["formulas_for_recalc", "active_sheet_output"]);
  });

  it("the sim writer answers with the flawed script of the first missing rule, else the correct one", () => {
    const knowledge = buildSimKnowledge(
      rules,
      all.map((row, index) => normaliseSpreadsheetRow(row, { file: "s", index })) as Item[],
    );
    const item = splits.val[6]!; // needs write_values then dynamic_rows
    expect(sim(item).needs).toEqual(["write_values", "dynamic_rows"]);
    const ask = (skill: string) =>
      spreadsheetSimResponder({
        system: "",
        user: `## Instruction\n${String(item.instruction)}\n\n## Task\n…`,
        skill,
        item: null,
        missingRule: null,
        slip: false,
        noise: 0.5,
        knowledge,
      }) ?? "";
    const guidance = (id: string) => `- ${rules.find((r) => r.id === id)!.guidance}`;
    expect(ask(initial)).toContain(SOLUTIONS[item.id]!.wrong.write_values!.trimEnd());
    expect(ask(`${initial}\n${guidance("write_values")}`)).toContain(SOLUTIONS[item.id]!.wrong.dynamic_rows!.trimEnd());
    const trained = initial.replace(/.*preview usually shows all the rows.*\n/, "");
    expect(ask(`${trained}\n${guidance("write_values")}\n${guidance("dynamic_rows")}`)).toContain(
      SOLUTIONS[item.id]!.correct.trimEnd(),
    );
    expect(
      ask(
        `${trained}\n${guidance("write_values")}\n${guidance("dynamic_rows")}\n- ${rules.find((r) => r.id === "formulas_for_recalc")!.guidance}`,
      ),
    ).toContain(SOLUTIONS[item.id]!.wrong.write_values!.trimEnd());
  });

  it("really runs: the correct script passes every case, each flawed one fails with its annotated text in the failure reason (val split)", async () => {
    const env = createSpreadsheetEnv(
      buildRunConfig({ name: "spreadsheetbench", split_mode: "sample", sandbox_timeout: 20 }),
      { rootDir: process.cwd(), vars: TEST_VARS },
    );
    const runs = splits.val.flatMap((raw, index) => {
      const item = normaliseSpreadsheetRow(raw, { file: "val", index }) as Item;
      const scripts: Array<[string | null, string]> = [
        [null, SOLUTIONS[item.id]!.correct],
        ...Object.entries(SOLUTIONS[item.id]!.wrong),
      ];
      return scripts.map(async ([rule, code]) => {
        const client = fakeClient(() => `\`\`\`python\n${code}\`\`\``);
        const t = await env.rollout({ item, skill: "", client, phase: "selection", seed: 0, useEvalFeedback: false });
        return { id: item.id, rule, t, wrong: rule === null ? "" : sim(item).wrong[rule]! };
      });
    });
    for (const r of await Promise.all(runs)) {
      if (r.rule === null) {
        expect(r.t.hard, `${r.id}: ${r.t.failReason ?? ""}`).toBe(1);
      } else {
        expect(r.t.hard, `${r.id}/${r.rule}`).toBe(0);
        expect(norm(r.t.failReason ?? ""), `${r.id}/${r.rule}`).toContain(norm(r.wrong));
      }
    }
  }, 60_000);
});

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBenchmarkSplits } from "../registry";
import { buildRunConfig } from "../test-helpers";
import { findTestCases } from "./cases";
import { normaliseSpreadsheetRow } from "./normalise";
import { removeTempDirs, tempDir } from "./test-fixtures";

/** Items as the released split files hold them. */
const ORIGINAL = [
  {
    id: "59196",
    instruction: "Fill C2:C9 with the running total of B.",
    instruction_type: "Cell-Level Manipulation",
    answer_position: "C2:C9",
    answer_sheet: "Sheet1",
  },
  {
    id: 413,
    instruction: "Move the summary to a new sheet.",
    instruction_type: "Sheet-Level Manipulation",
    answer_position: "'Summary Sheet'!A1:D20",
    spreadsheet_path: "spreadsheet/413",
  },
];

function splitDir(rows: unknown[]): string {
  const root = tempDir();
  for (const split of ["train", "val", "test"]) {
    mkdirSync(path.join(root, split));
    writeFileSync(path.join(root, split, "items.json"), JSON.stringify(split === "train" ? rows : ORIGINAL));
  }
  return root;
}

afterAll(removeTempDirs);

describe("SpreadsheetBench loader", () => {
  it("reads the original split format and derives task types, question and default paths", () => {
    const root = splitDir(ORIGINAL);
    const splits = loadBenchmarkSplits(
      buildRunConfig({ name: "spreadsheetbench", split_mode: "split_dir", split_dir: root }),
      "/",
    );
    expect(splits.train.map((i) => i.id)).toEqual(["59196", "413"]);
    expect(splits.train[0]).toMatchObject({
      task_type: "cell_level",
      question: "Fill C2:C9 with the running total of B.",
      answer_sheet: "Sheet1",
      spreadsheet_path: "spreadsheet/59196",
    });
    expect(splits.train[1]).toMatchObject({
      task_type: "sheet_level",
      answer_sheet: "",
      spreadsheet_path: "spreadsheet/413",
    });
    expect(
      normaliseSpreadsheetRow(
        { id: "x", instruction: "i", answer_position: "A1", instruction_type: "Other" },
        { file: "f", index: 0 },
      ).task_type,
    ).toBe("other");
  });

  it("names the file and the item index of a malformed row", () => {
    const config = (rows: unknown[]) =>
      buildRunConfig({ name: "spreadsheetbench", split_mode: "split_dir", split_dir: splitDir(rows) });
    const file = (root: string) => path.join(root, "train", "items.json");
    const noInstruction = config([ORIGINAL[0], { id: "2", answer_position: "A1" }]);
    expect(() => loadBenchmarkSplits(noInstruction, "/")).toThrow(
      `${file(noInstruction.env.split_dir)}: item 1: missing field 'instruction'`,
    );
    const noPosition = config([{ id: "1", instruction: "Do it", answer_position: " " }]);
    expect(() => loadBenchmarkSplits(noPosition, "/")).toThrow("item 0: missing field 'answer_position'");
    expect(() =>
      loadBenchmarkSplits(config([{ id: "1", instruction: "x", answer_position: "A1", spreadsheet_path: 3 }]), "/"),
    ).toThrow("item 0: 'spreadsheet_path' must be a string");
    expect(() => loadBenchmarkSplits(config(["not an object"]), "/")).toThrow("item 0: is not a JSON object");
  });

  it("finds test cases in all three naming schemes, ordered by number, ignoring unpaired files", () => {
    const a = tempDir();
    for (const f of [
      "2_7_input.xlsx",
      "2_7_answer.xlsx",
      "10_7_input.xlsx",
      "10_7_answer.xlsx",
      "1_7_input.xlsx",
      "3_7_input.xlsx",
    ])
      writeFileSync(path.join(a, f), "");
    expect(findTestCases(a).map((c) => [c.no, path.basename(c.input), path.basename(c.gold)])).toEqual([
      ["2", "2_7_input.xlsx", "2_7_answer.xlsx"],
      ["10", "10_7_input.xlsx", "10_7_answer.xlsx"],
    ]);
    const b = tempDir();
    for (const f of ["1_x_init.xlsx", "1_x_golden.xlsx"]) writeFileSync(path.join(b, f), "");
    expect(findTestCases(b).map((c) => c.no)).toEqual(["1"]);
    const c = tempDir();
    for (const f of ["initial.xlsx", "golden.xlsx"]) writeFileSync(path.join(c, f), "");
    expect(findTestCases(c)).toEqual([
      { no: "1", input: path.join(c, "initial.xlsx"), gold: path.join(c, "golden.xlsx") },
    ]);
    expect(findTestCases(path.join(c, "missing"))).toEqual([]);
  });
});

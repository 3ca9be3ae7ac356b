/**
 * Test cases of one SpreadsheetBench task folder: `{no}_{id}_input.xlsx` + `{no}_{id}_answer.xlsx`
 * (the verified-400 release), `{no}_{id}_init.xlsx` + `{no}_{id}_golden.xlsx` (older releases), or a
 * bare `initial.xlsx` + `golden.xlsx` (case "1"). Cases are ordered by number; a file without its
 * partner is ignored.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** One input workbook and the gold workbook it should become. */
export interface TestCase {
  no: string;
  input: string;
  gold: string;
}

const PAIRS: Array<{ input: RegExp; gold: (no: string, id: string) => string }> = [
  { input: /^(\d+)_(.+)_input\.xlsx$/i, gold: (no, id) => `${no}_${id}_answer.xlsx` },
  { input: /^(\d+)_(.+)_init\.xlsx$/i, gold: (no, id) => `${no}_${id}_golden.xlsx` },
];

/** The test cases in `folder` (empty when the folder is missing or holds none). */
export function findTestCases(folder: string): TestCase[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return [];
  const names = readdirSync(folder);
  const present = new Set(names.map((n) => n.toLowerCase()));
  const found = (name: string) => names.find((n) => n.toLowerCase() === name.toLowerCase());
  const cases: TestCase[] = [];
  for (const name of names) {
    for (const pair of PAIRS) {
      const m = pair.input.exec(name);
      if (!m) continue;
      const gold = found(pair.gold(m[1] as string, m[2] as string));
      if (gold) cases.push({ no: String(Number(m[1])), input: path.join(folder, name), gold: path.join(folder, gold) });
    }
  }
  if (cases.length === 0 && present.has("initial.xlsx") && present.has("golden.xlsx")) {
    cases.push({
      no: "1",
      input: path.join(folder, found("initial.xlsx") as string),
      gold: path.join(folder, found("golden.xlsx") as string),
    });
  }
  return cases.sort((a, b) => Number(a.no) - Number(b.no));
}

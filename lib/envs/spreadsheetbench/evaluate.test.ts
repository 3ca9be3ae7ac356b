import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareWorkbooks, scoreCases, type CaseResult, type Comparison } from "./evaluate";
import { failureReason, verificationReport } from "./report";
import { removeTempDirs, tempDir, testSettings, writeWorkbooks, type WorkbookSpec } from "./test-fixtures";
import { XlsxToolPool } from "./tool-pool";

const dir = tempDir();
const tools = new XlsxToolPool(testSettings(), { size: 2, readable: [dir] });
const cell = (value: string): WorkbookSpec => ({ S: [["A1", value]] });
const two: WorkbookSpec = {
  "My, Sheet": [
    ["A1", "1"],
    ["B2", "2"],
  ],
  Other: [["C3", "'ok'"]],
};
const twoBad: WorkbookSpec = { ...two, Other: [["C3", "'no'"]] };

/** name → [gold, prediction]; written once, with one Python process. */
const BOOKS: Record<string, [WorkbookSpec, WorkbookSpec]> = {
  round: [cell("1.234"), cell("1.23")],
  roundOff: [cell("1.23"), cell("1.24")],
  numText: [cell("12"), cell("' 12.001 '")],
  sepText: [cell("1200"), cell("'1,200'")],
  bool: [cell("1"), cell("True")],
  emptyNone: [cell("''"), { S: [["B1", "1"]] }],
  textSame: [cell("'abc'"), cell("'abc'")],
  textCase: [cell("'abc'"), cell("'ABC'")],
  typeDiff: [cell("'x'"), cell("1")],
  sameDay: [cell("datetime.datetime(2024, 1, 5, 0, 0)"), cell("datetime.datetime(2024, 1, 5, 10, 0)")],
  otherDay: [cell("datetime.datetime(2024, 1, 5)"), cell("datetime.datetime(2024, 1, 6)")],
  serial: [cell("datetime.datetime(2024, 1, 5)"), cell("45296")],
  timeSec: [cell("datetime.time(12, 30, 45)"), cell("datetime.time(12, 30, 10)")],
  timeMin: [cell("datetime.time(12, 30)"), cell("datetime.time(12, 31)")],
  missing: [{ S: [["A1", "1"]], Out: [["A1", "2"]] }, { S: [["A1", "1"]] }],
  multiOk: [two, two],
  multiBad: [two, twoBad],
  formula: [cell("3"), cell("'=1+2'")],
};

beforeAll(() => {
  writeWorkbooks(
    Object.entries(BOOKS).flatMap(([name, [gold, pred]]) => [
      { file: path.join(dir, `${name}-gold.xlsx`), sheets: gold },
      { file: path.join(dir, `${name}-pred.xlsx`), sheets: pred },
    ]),
  );
});

async function compare(name: keyof typeof BOOKS, position = "S!A1", answerSheet = ""): Promise<Comparison> {
  const res = await compareWorkbooks(tools, {
    gold: path.join(dir, `${name}-gold.xlsx`),
    pred: path.join(dir, `${name}-pred.xlsx`),
    spec: { answerPosition: position, answerSheet },
  });
  if (!res.ok) throw new Error(res.message);
  return res.value;
}

afterAll(removeTempDirs);

describe("SpreadsheetBench cell comparison (port of the official checker)", () => {
  it("rounds numbers to 2 decimals and compares numeric strings as numbers", async () => {
    expect((await compare("round")).ok).toBe(true);
    expect((await compare("roundOff")).ok).toBe(false);
    expect((await compare("numText")).ok).toBe(true);
    expect((await compare("sepText")).mismatches).toEqual(["S!A1: got '1,200', expected 1200"]);
    expect((await compare("bool")).ok).toBe(true);
  });

  it("treats None and the empty string as equal, and needs the same type otherwise", async () => {
    expect((await compare("emptyNone")).ok).toBe(true);
    expect((await compare("textSame")).ok).toBe(true);
    expect((await compare("textCase")).ok).toBe(false);
    expect((await compare("typeDiff")).mismatches).toEqual(["S!A1: got 1, expected 'x'"]);
  });

  it("compares datetimes by whole Excel serial day (so a date equals its serial number) and times without seconds", async () => {
    expect((await compare("sameDay")).ok).toBe(true);
    expect((await compare("otherDay")).ok).toBe(false);
    expect((await compare("serial")).ok).toBe(true);
    expect((await compare("timeSec")).ok).toBe(true);
    expect((await compare("timeMin")).ok).toBe(false);
  });

  it("fails a range whose sheet is missing in the prediction", async () => {
    expect(await compare("missing", "S!A1,Out!A1")).toMatchObject({
      ok: false,
      missing_sheets: ["Out"],
      mismatches: ["sheet 'Out' missing in prediction"],
      n_correct: 1,
    });
  });

  it("checks every range of a comma-separated position, with quoted sheet names and a default sheet", async () => {
    expect(await compare("multiOk", "'My, Sheet'!A1:B2, Other!C3")).toMatchObject({
      ok: true,
      n_cells: 5,
      n_correct: 5,
    });
    const bad = await compare("multiBad", "'My, Sheet'!A1:B2,Other!C3");
    expect(bad).toMatchObject({ ok: false, n_correct: 4, mismatches: ["Other!C3: got 'no', expected 'ok'"] });
    expect((await compare("multiBad", "C3", "Other")).mismatches).toEqual(["Other!C3: got 'no', expected 'ok'"]);
    expect(await compare("multiBad", "$A$1:$B$2")).toMatchObject({ ok: true, n_cells: 4 });
  });

  it("flags answer cells that hold a formula without a cached value", async () => {
    expect(await compare("formula")).toMatchObject({
      ok: false,
      formula_cells: ["S!A1"],
      mismatches: ["S!A1: got None, expected 3"],
    });
  });
});

describe("workbook helper pool", () => {
  it("answers a bad request with an error and keeps serving; a killed helper is replaced", async () => {
    const pool = new XlsxToolPool(testSettings(), { size: 1, readable: [dir] });
    const bad = await pool.call({ op: "preview", path: path.join(dir, "missing.xlsx") });
    expect(bad).toMatchObject({ ok: false, message: expect.stringMatching(/^FileNotFoundError/) });
    const good = await pool.call<{ sheets: Array<{ name: string }> }>({
      op: "preview",
      path: path.join(dir, "round-gold.xlsx"),
    });
    expect(good.ok && good.value.sheets.map((s) => s.name)).toEqual(["S"]);
    const server = (pool as unknown as { free: Array<{ child: { kill(sig: string): void } | null }> }).free[0]!;
    server.child!.kill("SIGKILL");
    await new Promise((r) => setTimeout(r, 100));
    expect((await pool.call({ op: "preview", path: path.join(dir, "round-gold.xlsx") })).ok).toBe(true);
  });
});

describe("SpreadsheetBench scores and reports", () => {
  const cmp: Comparison = {
    ok: false,
    n_cells: 3,
    n_correct: 1,
    missing_sheets: [],
    formula_cells: ["S!A2"],
    cells: [
      { ref: "S!A1", got: "1", expected: "1", ok: true, empty: false },
      { ref: "S!A2", got: "None", expected: "2", ok: false, empty: false },
      { ref: "S!A3", got: "None", expected: "3", ok: false, empty: false },
      { ref: "S!A4", got: "None", expected: "None", ok: true, empty: true },
    ],
    mismatches: ["S!A2: got None, expected 2", "S!A3: got None, expected 3"],
  };
  const pass: CaseResult = { no: "1", stage: "done", ok: true, comparison: { ...cmp, ok: true, mismatches: [] } };
  const fail: CaseResult = { no: "2", stage: "done", ok: false, comparison: cmp };
  const crash: CaseResult = {
    no: "3",
    stage: "exec",
    ok: false,
    kind: "error",
    message: "Traceback …\nKeyError: 'Out'",
  };

  it("soft = passed / n, hard = 1 iff every case passed; the failure reason is one line", () => {
    expect(scoreCases([pass, fail])).toEqual({ hard: 0, soft: 0.5, passed: 1 });
    expect(scoreCases([pass, pass])).toEqual({ hard: 1, soft: 1, passed: 2 });
    expect(failureReason([pass, fail])).toBe(
      "eval-mismatch: 1/2 cases passed; case 2: S!A2: got None, expected 2 (+1 more wrong cells)",
    );
    expect(failureReason([crash, pass])).toBe("exec-error: case 3: KeyError: 'Out'");
    expect(failureReason([pass])).toBeUndefined();
  });

  it("writes the verification report per cell, collapses empty cells and caps it at head + tail", () => {
    const report = verificationReport([fail, crash]);
    expect(report).toContain("[POST-EXECUTION VERIFICATION]\nCase 2: FAIL (1/3 answer cells correct)");
    expect(report).toContain("  S!A2: got=None, expected=2 ✗");
    expect(report).toContain("(1 empty cells correctly left empty)");
    expect(report).toContain("WARNING: formula cells without a cached value");
    expect(report).toContain("Case 3: error — Traceback");
    const many = Array.from({ length: 600 }, (_, i) => ({
      ref: `S!A${i}`,
      got: "x".repeat(20),
      expected: "1",
      ok: false,
      empty: false,
    }));
    const long = verificationReport([{ ...fail, comparison: { ...cmp, cells: many } }]);
    expect(long.length).toBeLessThan(12_200);
    expect(long).toContain("characters cut");
    expect(long.startsWith("[POST-EXECUTION VERIFICATION]")).toBe(true);
    expect(long.endsWith("formula cells without a cached value (openpyxl does not compute formulas): S!A2")).toBe(true);
  });
});

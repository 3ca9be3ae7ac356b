/**
 * Test helpers: workbooks written by Python/openpyxl from a compact description, and sandbox settings
 * for the interpreter the tests run with. Only tests import this file.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findOnPath, probeIsolation, type Isolation } from "./bwrap";
import { PYTHON_DIR, resolvePython } from "./python";
import type { SandboxSettings } from "./sandbox";

/** The variables the tests pass as the process environment (never the real one). */
export const TEST_VARS = { PATH: "/usr/local/bin:/usr/bin:/bin" } as const;

/** Python with openpyxl, found the way the env finds it. */
export const TEST_PYTHON = resolvePython(TEST_VARS);

/** The real bubblewrap sandbox for the test interpreter; the tests need it (as CI does: apt-get install bubblewrap). */
export function testIsolation(): Isolation {
  const probe = probeIsolation({
    python: TEST_PYTHON,
    vars: TEST_VARS,
    pythonDir: PYTHON_DIR,
    protect: [process.cwd()],
  });
  if (!probe.ok) throw new Error(`the SpreadsheetBench tests need a working bubblewrap: ${probe.reason}`);
  return { kind: "bwrap", bwrap: probe.bwrap, layout: probe.layout };
}

/** Sandbox settings with short limits, in the real sandbox unless `isolation` says otherwise. */
export function testSettings(overrides: Partial<SandboxSettings> = {}): SandboxSettings {
  return {
    python: TEST_PYTHON,
    vars: TEST_VARS,
    timeoutSec: 2,
    memoryMb: 512,
    pythonDir: PYTHON_DIR,
    isolation: testIsolation(),
    ...overrides,
  };
}

const created: string[] = [];

/** A fresh temporary folder (removed by `removeTempDirs`). */
export function tempDir(prefix = "ssb-test-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made in this test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** One workbook to write: sheet name → cells as `[ref, python expression]`, in sheet order. */
export type WorkbookSpec = Record<string, Array<[string, string]>>;

/**
 * Writes workbooks with one Python process (e.g. cell `["A1", "'12'"]` is the text 12 and
 * `["B2", "datetime.datetime(2024, 1, 5, 10, 0)"]` a datetime).
 */
export function writeWorkbooks(books: Array<{ file: string; sheets: WorkbookSpec }>): void {
  const lines = ["import datetime", "from openpyxl import Workbook"];
  for (const { file, sheets } of books) {
    lines.push("wb = Workbook()", "wb.remove(wb.active)");
    for (const [name, cells] of Object.entries(sheets)) {
      lines.push(`ws = wb.create_sheet(${JSON.stringify(name)})`);
      for (const [ref, value] of cells) lines.push(`ws[${JSON.stringify(ref)}] = ${value}`);
    }
    lines.push(`wb.save(${JSON.stringify(file)})`);
  }
  execFileSync(TEST_PYTHON, ["-c", lines.join("\n")], { env: { ...TEST_VARS } as unknown as NodeJS.ProcessEnv });
}

/** Writes one workbook and returns its path. */
export function writeWorkbook(file: string, sheets: WorkbookSpec): string {
  writeWorkbooks([{ file, sheets }]);
  return file;
}

/** A PATH (one temporary folder) holding only the test interpreter as `python3` plus `extra` scripts: no bubblewrap. */
export function pathWithoutBwrap(extra: Record<string, string> = {}): string {
  const bin = tempDir("ssb-bin-");
  const python = path.isAbsolute(TEST_PYTHON) ? TEST_PYTHON : findOnPath(TEST_PYTHON, TEST_VARS.PATH);
  if (python === null) throw new Error(`${TEST_PYTHON} is not on ${TEST_VARS.PATH}`);
  symlinkSync(python, path.join(bin, "python3"));
  for (const [name, body] of Object.entries(extra)) writeFileSync(path.join(bin, name), body, { mode: 0o755 });
  return bin;
}

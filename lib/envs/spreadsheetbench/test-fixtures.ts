/**
 * Test helpers: workbooks written by Python/openpyxl from a compact description, and sandbox settings
 * for the interpreter the tests run with. Only tests import this file.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PYTHON_DIR, resolvePython } from "./python";
import type { SandboxSettings } from "./sandbox";

/** The variables the tests pass as the process environment (never the real one). */
export const TEST_VARS = { PATH: "/usr/local/bin:/usr/bin:/bin" } as const;

/** Python with openpyxl, found the way the env finds it. */
export const TEST_PYTHON = resolvePython(TEST_VARS);

/** Sandbox settings with short limits. */
export function testSettings(overrides: Partial<SandboxSettings> = {}): SandboxSettings {
  return { python: TEST_PYTHON, vars: TEST_VARS, timeoutSec: 2, memoryMb: 512, pythonDir: PYTHON_DIR, ...overrides };
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

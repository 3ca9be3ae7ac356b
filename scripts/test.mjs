#!/usr/bin/env node
// `npm test`: runs every suite the project has and ends with one plain summary line
// ("tests: N passed, M failed"), which CI reads. Suites:
//   unit         vitest project "unit" (lib/**, worker/**, scripts/** *.test.ts)
//   integration  vitest project "integration" (tests/integration/*.int.test.ts), when present
//   e2e          Playwright (e2e/*.spec.ts), when present
// Extra arguments are passed to vitest (e.g. `npm test -- lib/engine`); e2e/*.spec.ts arguments run just those
// Playwright specs (`npm test -- e2e/runs.spec.ts`; E2E_PROVIDERS=sqlite for one database's pass).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensurePackages, requirementsFor } from "../lib/system/index.mjs";
import { freePort, startServices } from "./test-services.mjs";

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
    // With file filters, one project may match none of them (`npm test -- tests/integration/x.int.test.ts`
    // finds no unit test): that is not a broken suite.
    [
      join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      "--project",
      project,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${out}`,
      ...(extra.length ? ["--passWithNoTests"] : []),
      ...extra,
    ],
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

async function runPlaywright(services, specs) {
  // A spare port, not a fixed one: a dashboard or mock server someone runs on this machine cannot collide.
  const port = process.env.E2E_PORT ?? String(await freePort());
  const out = join(tmp, "e2e.json");
  // Build once, up front: the web server Playwright starts then only serves, within its start-up timeout.
  const build = spawnSync(process.execPath, ["--import", "tsx", "scripts/start/build.ts"], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  if (build.status !== 0) {
    console.error("e2e: next build failed");
    broken = true;
    return;
  }
  // E2E_PROVIDERS=sqlite (or postgres) runs one database's pass only, for a quick local check.
  const providers = (process.env.E2E_PROVIDERS ?? "sqlite,postgres").split(",").filter(Boolean);
  for (const provider of providers) {
    const dbUrl =
      provider === "sqlite" ? `file:${join(tmp, "e2e.db")}` : services.pgUrl.replace(/\/postgres$/, "/skillopt_e2e");
    if (provider === "postgres")
      spawnSync("psql", [services.pgUrl, "-qc", "create database skillopt_e2e"], { stdio: "inherit" });
    const env = {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: services.redisUrl,
      E2E_PROVIDER: provider,
      E2E_PORT: port,
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    };
    // Each e2e pass starts from an empty queue: jobs left by earlier suites belong to other databases.
    spawnSync("redis-cli", ["-u", services.redisUrl, "flushall"], { stdio: "ignore" });
    const mig = spawnSync(process.execPath, ["scripts/prisma.mjs", "migrate", "deploy"], {
      cwd: root,
      env,
      stdio: "pipe",
      encoding: "utf8",
    });
    if (mig.status !== 0) {
      console.error(mig.stdout, mig.stderr);
      broken = true;
      continue;
    }
    const r = spawnSync(
      process.execPath,
      [join(root, "node_modules/@playwright/test/cli.js"), "test", "--reporter=list,json", ...specs],
      { cwd: root, env, stdio: "inherit" },
    );
    if (!existsSync(out)) {
      console.error(`e2e (${provider}): playwright produced no report (exit ${r.status})`);
      broken = true;
      continue;
    }
    const report = JSON.parse(readFileSync(out, "utf8"));
    totals.passed += report.stats?.expected ?? 0;
    totals.failed += (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0);
    totals.skipped += report.stats?.skipped ?? 0;
    if (r.status !== 0 && (report.stats?.unexpected ?? 0) === 0) broken = true;
    rmSync(out, { force: true });
  }
}

// Arguments: Playwright spec files (e2e/*.spec.ts) run only those specs; everything else goes to vitest.
const args = process.argv.slice(2);
const specs = args.filter((a) => /(^|\/)e2e\/.*\.spec\.ts$/.test(a));
const extra = args.filter((a) => !specs.includes(a));
const onlySpecs = specs.length > 0 && extra.length === 0;
const wantIntegration = hasFiles("tests/integration", /\.int\.test\.ts$/) && !onlySpecs;
const wantE2e = hasFiles("e2e", /\.spec\.ts$/) && (args.length === 0 || specs.length > 0);
const needServices = wantIntegration || wantE2e;
// The system packages these suites need are installed here when the machine allows it (lib/system).
const purposes = ["unit", ...(needServices ? ["services"] : []), ...(wantE2e ? ["e2e"] : [])];
const system = await ensurePackages(requirementsFor(...purposes), {
  purpose: "npm test",
  say: (line) => console.log(line),
});
if (!system.ok) {
  console.error(`\n${system.message}`);
  console.log(`\ntests: 0 passed, 1 failed (missing system packages: ${system.missing.join(", ")})`);
  rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
}

if (!onlySpecs) runVitest("unit", extra);
if (wantIntegration || wantE2e) {
  const services = await startServices();
  process.env.REDIS_URL = services.redisUrl;
  process.env.TEST_PG_URL = services.pgUrl;
  try {
    if (wantIntegration) runVitest("integration", extra);
    if (wantE2e) await runPlaywright(services, specs);
  } finally {
    await services.stop();
  }
}

rmSync(tmp, { recursive: true, force: true });
const line = `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`;
console.log(`\n${line}${broken ? " (a suite did not run to completion)" : ""}`);
process.exit(totals.failed > 0 || broken ? 1 : 0);

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requirementsTable } from "../lib/system/index.mjs";

// An empty PATH: nothing is found there (no bwrap, no apt-get), whatever this machine has installed.
const emptyBin = mkdtempSync(join(tmpdir(), "skillopt-nobin-"));
afterAll(() => rmSync(emptyBin, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [script, ...args], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: emptyBin, HOME: emptyBin, ...env },
    timeout: 60_000,
  });
}

describe("scripts/system-packages.mjs (used by .ci/run)", () => {
  it("prints the README table from the requirements module", () => {
    const r = run("scripts/system-packages.mjs", ["table"]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(requirementsTable());
  });

  it("ensure: exits 1 with the package, the reason and the command when it may not install", () => {
    const r = run("scripts/system-packages.mjs", ["ensure", "spreadsheetbench"], { SKILLOPT_NO_AUTO_INSTALL: "1" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^SkillOpt \(spreadsheetbench\) needs these system packages: .*bubblewrap — SKILLOPT_NO_AUTO_INSTALL is set\. Install them with: (sudo )?apt-get install -y .*bubblewrap/,
    );
  });

  it("rejects an unknown purpose", () => {
    const r = run("scripts/system-packages.mjs", ["ensure", "nonsense"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown purpose nonsense/);
  });
});

describe("npm test (scripts/test.mjs) before any suite", () => {
  it("with a package missing and installs turned off: says what to run, ends with the tests line, runs nothing", () => {
    const r = run("scripts/test.mjs", ["lib/system/plan.test.ts"], { SKILLOPT_NO_AUTO_INSTALL: "1" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /npm test needs these system packages: .*bubblewrap.* — SKILLOPT_NO_AUTO_INSTALL is set\. Install them with: (sudo )?apt-get install -y /,
    );
    expect(r.stdout.trim().split("\n").at(-1)).toMatch(
      /^tests: 0 passed, 1 failed \(missing system packages: .*bubblewrap/,
    );
    expect(r.stdout).not.toMatch(/RUN|vitest/i);
  });
});

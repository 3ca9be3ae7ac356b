import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Item } from "../../engine/types";
import { buildRunConfig, fakeClient } from "../test-helpers";
import { chooseIsolation, interpreterLayout, probeIsolation, sandboxArgs } from "./bwrap";
import { createSpreadsheetEnv, spreadsheetSample } from "./index";
import { normaliseSpreadsheetRow } from "./normalise";
import { PYTHON_DIR } from "./python";
import { disposeScratch, executeScript } from "./sandbox";
import {
  pathWithoutBwrap,
  removeTempDirs,
  tempDir,
  testSettings,
  TEST_PYTHON,
  TEST_VARS,
  writeWorkbook,
} from "./test-fixtures";

afterAll(removeTempDirs);

const probeOf = (PATH: string) =>
  probeIsolation({ python: "python3", vars: { PATH }, pythonDir: PYTHON_DIR, protect: [process.cwd()] });

describe("bubblewrap probe", () => {
  it("finds bwrap and a sandboxed interpreter that imports openpyxl on this machine", () => {
    const probe = probeIsolation({
      python: TEST_PYTHON,
      vars: TEST_VARS,
      pythonDir: PYTHON_DIR,
      protect: [process.cwd()],
    });
    expect(probe).toMatchObject({ ok: true, bwrap: expect.stringMatching(/\/bwrap$/) });
  });

  it("gives the reason when bwrap is missing from PATH", () => {
    expect(probeOf(pathWithoutBwrap())).toEqual({
      ok: false,
      reason: "bubblewrap (bwrap) is not installed or not on PATH",
    });
  });

  it("gives bwrap's own reason when it cannot create namespaces, and probes only once", () => {
    const count = path.join(tempDir(), "calls");
    const bin = pathWithoutBwrap({
      bwrap: `#!/bin/sh\necho x >> ${count}\necho 'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces' >&2\nexit 1\n`,
    });
    const first = probeOf(bin);
    expect(first).toEqual({
      ok: false,
      reason: `${bin}/bwrap cannot start a sandbox here (bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces)`,
    });
    expect(probeOf(bin)).toBe(first);
    expect(readFileSync(count, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("binds an interpreter's own folders (a venv) read-only, never an ancestor of the project or HOME", () => {
    const venv = path.join(tempDir("ssb-venv-"), "venv");
    execFileSync(TEST_PYTHON, ["-m", "venv", "--without-pip", "--system-site-packages", venv], {
      env: { ...TEST_VARS } as unknown as NodeJS.ProcessEnv,
    });
    const python = path.join(venv, "bin", "python3");
    const layout = interpreterLayout(python, TEST_VARS, [process.cwd()]);
    expect(layout).toMatchObject({ executable: python, roots: [venv] });
    // Protecting a folder drops every root that would expose it (the venv), not the ones beside it.
    const guarded = interpreterLayout(python, TEST_VARS, [path.join(venv, "bin")]);
    expect("roots" in guarded && guarded.roots).toEqual([
      expect.stringMatching(new RegExp(`^${venv}/lib/python3\\.\\d+/site-packages$`)),
    ]);
    const probe = probeIsolation({ python, vars: TEST_VARS, pythonDir: PYTHON_DIR, protect: [process.cwd()] });
    expect(probe.ok).toBe(true);
    if (probe.ok) {
      const args = sandboxArgs(probe.layout, { helpers: PYTHON_DIR });
      const out = execFileSync(probe.bwrap, [...args, "--", python, "-c", "import sys, openpyxl; print(sys.prefix)"], {
        env: { ...TEST_VARS } as unknown as NodeJS.ProcessEnv,
        encoding: "utf8",
      });
      expect(out.trim()).toBe(venv);
    }
  });
});

describe("refusing to run model code without the sandbox", () => {
  it("refuses before the environment exists, naming bubblewrap and env.allow_unsandboxed", () => {
    expect(() =>
      chooseIsolation({ ok: false, reason: "bubblewrap (bwrap) is not installed or not on PATH" }, false),
    ).toThrow(
      "SpreadsheetBench runs model-written Python only inside the bubblewrap sandbox, and it is unavailable: bubblewrap (bwrap) is not installed or not on PATH. " +
        "Install it (apt-get install bubblewrap), or set env.allow_unsandboxed: true to run the scripts without a sandbox on a machine you trust",
    );
    const config = buildRunConfig({ name: "spreadsheetbench", split_mode: "sample" });
    let err: unknown;
    try {
      createSpreadsheetEnv(config, { rootDir: process.cwd(), vars: { PATH: pathWithoutBwrap() } });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      code: "UNAVAILABLE",
      field: "env.allow_unsandboxed",
      message: expect.stringMatching(/bubblewrap/),
    });
  });

  it("with env.allow_unsandboxed: true, runs the scripts as plain processes and says so", async () => {
    const warnings: string[] = [];
    const config = buildRunConfig({
      name: "spreadsheetbench",
      split_mode: "sample",
      allow_unsandboxed: true,
      sandbox_timeout: 20,
    });
    const env = createSpreadsheetEnv(config, {
      rootDir: process.cwd(),
      vars: { PATH: pathWithoutBwrap() },
      warn: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([expect.stringMatching(/^SpreadsheetBench scripts run WITHOUT a sandbox/)]);
    const item = normaliseSpreadsheetRow(spreadsheetSample().val[0]!, { file: "val", index: 0 }) as Item;
    // Unsandboxed, the host's files are readable: the script can see /etc/passwd (in the sandbox it cannot).
    const client = fakeClient(
      () => "```python\nimport os\nassert os.path.exists('/etc/passwd')\nraise SystemExit(3)\n```",
    );
    const t = await env.rollout({ item, skill: "", client, phase: "selection", seed: 0, useEvalFeedback: false });
    expect(t.failReason).toMatch(/SystemExit: 3/);
  });

  it("the same script cannot see /etc/passwd inside the sandbox", async () => {
    const input = writeWorkbook(path.join(tempDir(), "in.xlsx"), { S: [["A1", "1"]] });
    const out = await executeScript({
      settings: testSettings(),
      code: "import os\nassert os.path.exists('/etc/passwd')\n",
      inputPath: input,
    });
    disposeScratch(out.scratch);
    expect(out.kind !== "ok" && out.message).toMatch(/AssertionError/);
    expect(existsSync("/etc/passwd")).toBe(true);
  });
});

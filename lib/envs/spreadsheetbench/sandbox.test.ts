import { chmodSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pythonCandidates, resolvePython, scrubbedEnv } from "./python";
import {
  disposeScratch,
  executeScript,
  pickScratchRoot,
  scratchRoot,
  stripPathAssignments,
  type ExecOutcome,
} from "./sandbox";
import { removeTempDirs, tempDir, testSettings, TEST_PYTHON, TEST_VARS, writeWorkbook } from "./test-fixtures";

const input = writeWorkbook(path.join(tempDir(), "in.xlsx"), { S: [["A1", "1"]] });

async function run(code: string, settings = testSettings()): Promise<ExecOutcome & { ms: number }> {
  const t0 = performance.now();
  const out = await executeScript({ settings, code, inputPath: input });
  const ms = performance.now() - t0;
  disposeScratch(out.scratch);
  return { ...out, ms };
}

const SAVE = "from openpyxl import load_workbook\nwb = load_workbook(INPUT_PATH)\n";

afterAll(removeTempDirs);

describe("SpreadsheetBench sandbox", () => {
  it("runs a script that writes OUTPUT_PATH, even if it tried to set the paths itself", async () => {
    const code = `INPUT_PATH = "/etc/passwd"\nOUTPUT_PATH = '/tmp/elsewhere.xlsx'\n${SAVE}wb.save(OUTPUT_PATH)\n`;
    expect(stripPathAssignments(code)).not.toContain("/etc/passwd");
    expect((await run(code)).kind).toBe("ok");
  });

  it("reports the traceback of a crash (exit code 2) and a missing output", async () => {
    const crash = await run(`${SAVE}ws = wb["Nope"]\n`);
    expect(crash.kind).toBe("error");
    expect(crash.kind !== "ok" && crash.message).toMatch(/KeyError: 'Worksheet Nope does not exist.'$/);
    expect((await run(`${SAVE}print("done")\n`)).kind).toBe("no-output");
  });

  it("kills an infinite loop and its children within the time limit (the whole sandbox is killed)", async () => {
    const code = "import subprocess\nsubprocess.Popen(['sleep', '30'])\nwhile True:\n    pass\n";
    const out = await run(code, testSettings({ timeoutSec: 1 }));
    expect(out.kind).toBe("timeout");
    expect(out.ms).toBeLessThan(5000);
  });

  it("does not wait for background processes the script leaves behind", async () => {
    const code = `import subprocess\nsubprocess.Popen(['sleep', '30'])\n${SAVE}wb.save(OUTPUT_PATH)\n`;
    const out = await run(code, testSettings({ timeoutSec: 10 }));
    expect(out.kind).toBe("ok");
    expect(out.ms).toBeLessThan(5000);
  });

  it("answers ordinary socket use with a clear message (the in-interpreter block; the sandbox is the boundary)", async () => {
    const out = await run("import socket\nsocket.create_connection(('127.0.0.1', 9))\n");
    expect(out.kind !== "ok" && out.message).toMatch(
      /PermissionError: network access is disabled in the SpreadsheetBench sandbox/,
    );
    const raw = await run("import socket\nsocket.socket(socket.AF_INET, socket.SOCK_STREAM)\n");
    expect(raw.kind !== "ok" && raw.message).toMatch(/network access is disabled/);
  });

  it("hides the parent's environment: secrets are absent, HOME and TMPDIR are the task folder", async () => {
    const vars = { ...TEST_VARS, SKILLOPT_TEST_SECRET: "hunter2", OPENAI_API_KEY: "sk-test", LANG: "C.UTF-8" };
    const code = [
      "import os",
      "assert 'SKILLOPT_TEST_SECRET' not in os.environ and 'OPENAI_API_KEY' not in os.environ, sorted(os.environ)",
      "assert os.environ['HOME'] == os.getcwd() == os.environ['TMPDIR'], (os.environ['HOME'], os.getcwd())",
      "assert os.environ['LANG'] == 'C.UTF-8'",
      `${SAVE}wb.save(OUTPUT_PATH)`,
    ].join("\n");
    expect((await run(code, testSettings({ vars }))).kind).toBe("ok");
    expect(scrubbedEnv(vars, "/s")).toEqual({
      PATH: TEST_VARS.PATH,
      HOME: "/s",
      TMPDIR: "/s",
      TEMP: "/s",
      TMP: "/s",
      LANG: "C.UTF-8",
      PYTHONDONTWRITEBYTECODE: "1",
    });
  });

  it("stops a memory bomb with the address-space limit", async () => {
    const out = await run("x = bytearray(4 * 1024 ** 3)\n", testSettings({ memoryMb: 256 }));
    expect(out.kind).toBe("error");
    expect(out.kind !== "ok" && out.message).toMatch(/MemoryError/);
  });
});

describe("task folders", () => {
  it("live in one private folder per user, and each is removed after its script ran", async () => {
    const out = await executeScript({
      settings: testSettings(),
      code: `${SAVE}wb.save(OUTPUT_PATH)\n`,
      inputPath: input,
    });
    expect(path.dirname(out.scratch)).toBe(scratchRoot());
    disposeScratch(out.scratch);
    expect(existsSync(out.scratch)).toBe(false);
    const base = tempDir();
    const uid = process.getuid!();
    const own = pickScratchRoot(base, uid);
    expect(own).toBe(path.join(base, `skillopt-ssb-${uid}`));
    expect(statSync(own).mode & 0o777).toBe(0o700);
    expect(pickScratchRoot(base, uid)).toBe(own);
  });

  it("never uses a folder of that name that others can enter or that is a symlink", () => {
    const open = tempDir();
    mkdirSync(path.join(open, "skillopt-ssb-7"));
    chmodSync(path.join(open, "skillopt-ssb-7"), 0o777);
    const owned = pickScratchRoot(open, 7); // also owned by someone else: we are not uid 7
    expect(path.basename(owned)).toMatch(/^skillopt-ssb-(?!7$)/);
    const linked = tempDir();
    symlinkSync(tempDir(), path.join(linked, `skillopt-ssb-${process.getuid!()}`));
    expect(path.basename(pickScratchRoot(linked, process.getuid!()))).not.toBe(`skillopt-ssb-${process.getuid!()}`);
  });
});

describe("interpreter choice", () => {
  it("tries SKILLOPT_PYTHON, then python3, then /usr/bin/python3, and picks one that has openpyxl", () => {
    expect(pythonCandidates({ SKILLOPT_PYTHON: " /opt/py " })).toEqual(["/opt/py", "python3", "/usr/bin/python3"]);
    expect(pythonCandidates({})).toEqual(["python3", "/usr/bin/python3"]);
    expect(resolvePython({ ...TEST_VARS, SKILLOPT_PYTHON: "/nonexistent/python" })).toBe(TEST_PYTHON);
    expect(existsSync(TEST_PYTHON) || TEST_PYTHON === "python3").toBe(true);
  });

  it("says how to install Python or openpyxl when no candidate works", () => {
    expect(() => resolvePython(TEST_VARS, ["/nonexistent/python3"])).toThrow(
      "SpreadsheetBench needs Python 3, and none was found (tried /nonexistent/python3): apt-get install python3 python3-openpyxl, or set SKILLOPT_PYTHON",
    );
    const fake = path.join(tempDir(), "python3"); // runs, but cannot import openpyxl
    writeFileSync(fake, "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    expect(() => resolvePython(TEST_VARS, ["/nonexistent/python3", fake])).toThrow(
      /^SpreadsheetBench needs Python 3 with openpyxl: apt-get install python3-openpyxl/,
    );
  });
});

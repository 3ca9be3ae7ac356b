/**
 * A "model script" tries each known way out of the SpreadsheetBench sandbox, in the real bubblewrap
 * sandbox. Where an attempt is not obviously impossible, the same script also runs without the sandbox
 * (isolation "none") to show that the attempt itself works and only the sandbox stops it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeScratch, executeScript, type ExecOutcome, type SandboxSettings } from "./sandbox";
import { removeTempDirs, tempDir, testSettings, TEST_VARS, writeWorkbook } from "./test-fixtures";
import { XlsxToolPool } from "./tool-pool";

const project = process.cwd();
const secretsDir = path.join(project, ".skillopt");
const canary = path.join(secretsDir, `sandbox-canary-${process.pid}.txt`);
const input = writeWorkbook(path.join(tempDir(), "in.xlsx"), {
  S: [
    ["A1", "1"],
    ["A2", "2"],
  ],
});
const unsandboxed = (over: Partial<SandboxSettings> = {}) =>
  testSettings({ isolation: { kind: "none", reason: "test" }, ...over });

/** Runs `code`; the script's report is whatever it wrote to OUTPUT_PATH (read before the folder goes). */
async function run(code: string, settings = testSettings(), keep = false): Promise<ExecOutcome & { report: string }> {
  const out = await executeScript({ settings, code, inputPath: input });
  const report = out.kind === "ok" ? readFileSync(out.outputPath, "utf8") : "";
  if (!keep) disposeScratch(out.scratch);
  return { ...out, report };
}

/** A script that tries `attempts` (name → Python expression) and writes what each one gave as JSON. */
function attemptsScript(attempts: Record<string, string>): string {
  const lines = ["import json, os", "report = {}"];
  for (const [name, expr] of Object.entries(attempts)) {
    lines.push(
      "try:",
      `    report[${JSON.stringify(name)}] = 'ALLOWED ' + repr(${expr})[:60]`,
      "except Exception as e:",
      `    report[${JSON.stringify(name)}] = type(e).__name__`,
    );
  }
  lines.push("open(OUTPUT_PATH, 'w').write(json.dumps(report))");
  return lines.join("\n");
}

let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  mkdirSync(secretsDir, { recursive: true });
  writeFileSync(canary, "the sandbox must not see this");
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  rmSync(canary, { force: true });
  removeTempDirs();
  await new Promise((resolve) => server.close(resolve));
});

describe("SpreadsheetBench sandbox escapes", () => {
  it("cannot read /etc/passwd, the project, .skillopt/, HOME or the host's processes", async () => {
    const out = await run(
      attemptsScript({
        passwd: "open('/etc/passwd').read()",
        project: `open(${JSON.stringify(path.join(project, "package.json"))}).read()`,
        projectDir: `os.listdir(${JSON.stringify(project)})`,
        skillopt: `open(${JSON.stringify(canary)}).read()`,
        home: `os.listdir(${JSON.stringify(homedir())})`,
        hostEnviron: `open('/proc/${process.pid}/environ').read()`,
        processes: "sorted(int(p) for p in os.listdir('/proc') if p.isdigit())[2:]",
        initEnviron: "open('/proc/1/environ').read().split('\\0')",
      }),
      testSettings({ vars: { ...TEST_VARS, OPENAI_API_KEY: "sk-canary" } }),
    );
    expect(out.kind).toBe("ok");
    const report = JSON.parse(out.report) as Record<string, string>;
    expect(report).toMatchObject({
      passwd: "FileNotFoundError",
      project: "FileNotFoundError",
      projectDir: "FileNotFoundError",
      skillopt: "FileNotFoundError",
      home: "FileNotFoundError",
      hostEnviron: "FileNotFoundError",
      // Only the sandbox's init (1) and the script (2) exist in its PID namespace: nothing else to inspect.
      processes: "ALLOWED []",
    });
    expect(report.initEnviron).not.toContain("sk-canary");
    expect(readFileSync(canary, "utf8")).toBe("the sandbox must not see this");
  });

  it("cannot write outside its folder; its folder is writable", async () => {
    const outside = tempDir("ssb-outside-");
    const out = await run(
      attemptsScript({
        hostDir: `open(${JSON.stringify(path.join(outside, "escaped.txt"))}, 'w').write('x')`,
        usr: "open('/usr/escaped.txt', 'w').write('x')",
        tmp: "open('/tmp/escaped.txt', 'w').write('x')",
        root: "open('/escaped.txt', 'w').write('x')",
        shm: "open('/dev/shm/escaped.txt', 'w').write('x')",
        devNull: "open('/dev/null', 'w').write('x')",
        own: "open('note.txt', 'w').write('x')",
      }),
    );
    expect(JSON.parse(out.report)).toEqual({
      hostDir: "FileNotFoundError",
      usr: "OSError",
      tmp: "OSError",
      root: "OSError",
      shm: "OSError",
      devNull: "ALLOWED 1",
      own: "ALLOWED 1",
    });
    expect(existsSync(path.join(outside, "escaped.txt"))).toBe(false);
    expect(existsSync("/usr/escaped.txt") || existsSync("/escaped.txt")).toBe(false);
  });

  it("cannot reach a listener on the host's loopback, even through a re-imported _socket", async () => {
    const code = [
      "import sys",
      "for name in ('socket', '_socket'):",
      "    sys.modules.pop(name, None)",
      "import _socket",
      "s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)",
      "s.settimeout(3)",
      `s.connect(('127.0.0.1', ${port}))`,
      "open(OUTPUT_PATH, 'w').write('connected')",
    ].join("\n");
    const boxed = await run(code);
    expect(boxed.kind).toBe("error");
    // The sandbox's own network namespace has only its own, empty loopback.
    expect(boxed.kind !== "ok" && boxed.message).toMatch(/ConnectionRefusedError: \[Errno 111\] Connection refused$/);
    expect(connections).toBe(0);
    // Without the sandbox the re-import defeats the in-interpreter block: this is the hole it closes.
    const open = await run(code, unsandboxed());
    expect(open).toMatchObject({ kind: "ok", report: "connected" });
    expect(connections).toBe(1);
  });

  it("kills a setsid child at the time limit: the file it would write later never appears", async () => {
    const code = [
      "import subprocess, time",
      "subprocess.Popen(['setsid', 'sh', '-c', 'sleep 2; echo escaped > late.txt'], start_new_session=True)",
      "while True:",
      "    time.sleep(0.1)",
    ].join("\n");
    for (const [settings, expected] of [
      [testSettings({ timeoutSec: 1 }), false],
      [unsandboxed({ timeoutSec: 1 }), true],
    ] as const) {
      const out = await run(code, settings, true);
      expect(out.kind).toBe("timeout");
      await new Promise((r) => setTimeout(r, 3500));
      // Without the sandbox the child left the process group and outlived the limit (the finding).
      expect(existsSync(path.join(out.scratch, "late.txt")), settings.isolation.kind).toBe(expected);
      disposeScratch(out.scratch);
    }
  }, 20_000);

  it("still runs a normal script that edits the workbook, read back by the sandboxed helper", async () => {
    const code =
      "from openpyxl import load_workbook\nwb = load_workbook(INPUT_PATH)\nws = wb['S']\nws['B1'] = ws['A1'].value + ws['A2'].value\nwb.save(OUTPUT_PATH)\n";
    const settings = testSettings();
    const out = await executeScript({ settings, code, inputPath: input });
    try {
      expect(out.kind).toBe("ok");
      const tools = new XlsxToolPool(settings, { size: 1, readable: [] });
      const preview = await tools.call<{ sheets: Array<{ cells: string[][] }> }>({
        op: "preview",
        path: out.kind === "ok" ? out.outputPath : "",
      });
      expect(preview.ok && preview.value.sheets[0]?.cells).toEqual([
        ["A1", "1"],
        ["B1", "3"],
        ["A2", "2"],
      ]);
      // The helper sees the task folders and the data folders it was given, nothing else.
      expect(await tools.call({ op: "preview", path: input })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^FileNotFoundError/),
      });
    } finally {
      disposeScratch(out.scratch);
    }
  });
});

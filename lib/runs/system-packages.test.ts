import { afterEach, describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { AppError } from "../errors";
import { createFakeMachine, type FakeAptOptions, type FakeMachine } from "../system/testing-fakes";
import { ensureRunPackages } from "./system-packages";

const sheets = loadRunConfig("configs/spreadsheetbench/sample.yaml").config;
const searchqa = loadRunConfig("configs/searchqa/sample.yaml").config;

const machines: FakeMachine[] = [];
afterEach(() => {
  for (const m of machines.splice(0)) m.cleanup();
});

function setup(o: FakeAptOptions & { uid?: number; env?: Record<string, string> } = {}) {
  const m = createFakeMachine(o);
  machines.push(m);
  const lines: string[] = [];
  const opts = (install: boolean) => ({
    install,
    say: (l: string) => lines.push(l),
    env: { ...m.env, ...o.env },
    machine: { uid: o.uid ?? 0, sysroot: m.sysroot, listsDir: m.listsDir },
  });
  return { m, lines, opts };
}

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("ensureRunPackages", () => {
  it("a benchmark without system needs checks nothing, even on a machine with none of them", async () => {
    const { m, opts } = setup({ uid: 1000 });
    await ensureRunPackages(searchqa, opts(true));
    expect(m.calls()).toEqual([]);
  });

  it("SpreadsheetBench as root: installs python3-openpyxl and bubblewrap, printing the command, then continues", async () => {
    const { m, lines, opts } = setup();
    await ensureRunPackages(sheets, opts(true));
    expect(m.calls()).toEqual([
      "apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl bubblewrap [DEBIAN_FRONTEND=noninteractive]",
    ]);
    expect(lines[0]).toBe(
      "SpreadsheetBench needs python3-openpyxl, bubblewrap; installing them now (SKILLOPT_NO_AUTO_INSTALL=1 turns this off)",
    );
    expect(lines).toContain(
      "running: DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl bubblewrap",
    );
  });

  it("a run that opted out of the sandbox (env.allow_unsandboxed) does not need bubblewrap", async () => {
    const { m, opts } = setup();
    const optedOut = { ...sheets, env: { ...sheets.env, allow_unsandboxed: true } } as typeof sheets;
    await ensureRunPackages(optedOut, opts(true));
    expect(m.calls()).toEqual([
      "apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl [DEBIAN_FRONTEND=noninteractive]",
    ]);
  });

  it("cannot install (not root, sudo wants a password): a run error naming the packages, the reason and the command", async () => {
    const { m, opts } = setup({ uid: 1000 });
    const err = await errorOf(ensureRunPackages(sheets, opts(true)));
    expect(err.code).toBe("UNAVAILABLE");
    expect(err.field).toBe("env.name");
    expect(err.message).toBe(
      "SpreadsheetBench needs these system packages: python3-openpyxl, bubblewrap — not running as root, and sudo asks for a password. Install them with: sudo apt-get install -y python3-openpyxl bubblewrap (or set env.allow_unsandboxed: true in a config file to run model-written code without a sandbox, on a machine you trust)",
    );
    expect(err.userMessage).toBe(err.message);
    expect(m.calls().filter((c) => c.startsWith("apt-get"))).toEqual([]);
  });

  it("check only (the estimate): never installs; says they will be installed when the run is created", async () => {
    const { m, opts } = setup();
    const err = await errorOf(ensureRunPackages(sheets, opts(false)));
    expect(err.message).toBe(
      "SpreadsheetBench needs these system packages: python3-openpyxl, bubblewrap; they are not installed yet and will be installed when the run is created",
    );
    expect(m.calls()).toEqual([]);
  });

  it("check only with the opt-out: names the command to run", async () => {
    const { m, opts } = setup({ env: { SKILLOPT_NO_AUTO_INSTALL: "1" } });
    m.install("python3-openpyxl");
    const err = await errorOf(ensureRunPackages(sheets, opts(false)));
    expect(err.message).toBe(
      "SpreadsheetBench needs these system packages: bubblewrap — SKILLOPT_NO_AUTO_INSTALL is set. Install them with: apt-get install -y bubblewrap (or set env.allow_unsandboxed: true in a config file to run model-written code without a sandbox, on a machine you trust)",
    );
  });

  it("everything present: resolves without calling apt-get, in both modes", async () => {
    const { m, opts } = setup();
    m.install("python3-openpyxl");
    m.install("bubblewrap");
    await ensureRunPackages(sheets, opts(false));
    await ensureRunPackages(sheets, opts(true));
    expect(m.calls()).toEqual([]);
  });
});

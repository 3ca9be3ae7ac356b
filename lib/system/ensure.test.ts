import { afterEach, describe, expect, it } from "vitest";
import { ensurePackages, requirementsFor } from "./index.mjs";
import { createFakeMachine, type FakeAptOptions, type FakeMachine } from "./testing-fakes";

const machines: FakeMachine[] = [];
afterEach(() => {
  for (const m of machines.splice(0)) m.cleanup();
});

function machine(o: FakeAptOptions = {}): FakeMachine {
  const m = createFakeMachine(o);
  machines.push(m);
  return m;
}

const SHEETS = requirementsFor("spreadsheetbench"); // python3-openpyxl, bubblewrap

function ensure(m: FakeMachine, opts: { uid: number; env?: Record<string, string>; requirements?: typeof SHEETS }) {
  const lines: string[] = [];
  const result = ensurePackages(opts.requirements ?? SHEETS, {
    purpose: "SpreadsheetBench",
    say: (l) => lines.push(l),
    env: { ...m.env, ...opts.env },
    uid: opts.uid,
    sysroot: m.sysroot,
    listsDir: m.listsDir,
  });
  return { result, lines };
}

describe("ensurePackages", () => {
  it("as root with apt-get: prints the exact command, installs, and the packages are then found", async () => {
    const m = machine();
    const { result, lines } = ensure(m, { uid: 0 });
    expect(await result).toEqual({ ok: true, installed: ["python3-openpyxl", "bubblewrap"] });
    expect(m.calls()).toEqual([
      "apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl bubblewrap [DEBIAN_FRONTEND=noninteractive]",
    ]);
    expect(lines).toContain(
      "running: DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl bubblewrap",
    );
    expect(lines.join("\n")).toMatch(/SKILLOPT_NO_AUTO_INSTALL=1 turns this off/);
    // Detection now passes, so a second call does not touch apt-get.
    expect(await ensure(m, { uid: 0 }).result).toEqual({ ok: true, installed: [] });
    expect(m.calls()).toHaveLength(1);
  });

  it("with every package present it never calls apt-get or sudo", async () => {
    const m = machine({ passwordlessSudo: true });
    m.install("python3-openpyxl");
    m.install("bubblewrap");
    const { result, lines } = ensure(m, { uid: 0 });
    expect(await result).toEqual({ ok: true, installed: [] });
    expect(m.calls()).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("installs only what is missing", async () => {
    const m = machine();
    m.install("python3-openpyxl");
    expect(await ensure(m, { uid: 0 }).result).toEqual({ ok: true, installed: ["bubblewrap"] });
    expect(m.calls()).toEqual([
      "apt-get install -y -o DPkg::Lock::Timeout=300 bubblewrap [DEBIAN_FRONTEND=noninteractive]",
    ]);
  });

  it("not root and sudo asks for a password: no install, one command to run and the reason", async () => {
    const m = machine({ passwordlessSudo: false });
    const result = await ensure(m, { uid: 1000 }).result;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.command).toBe("sudo apt-get install -y python3-openpyxl bubblewrap");
    expect(result.message).toBe(
      "SpreadsheetBench needs these system packages: python3-openpyxl, bubblewrap — not running as root, and sudo asks for a password. Install them with: sudo apt-get install -y python3-openpyxl bubblewrap",
    );
    expect(m.calls()).toEqual(["sudo -n true"]); // the probe only; apt-get never ran
  });

  it("not root without sudo at all says so", async () => {
    const m = machine({ sudo: false });
    const result = await ensure(m, { uid: 1000 }).result;
    expect(result).toMatchObject({ ok: false, reason: "not running as root, and sudo is not installed" });
    expect(m.calls()).toEqual([]);
  });

  it("not root with passwordless sudo: installs through sudo -n", async () => {
    const m = machine({ passwordlessSudo: true });
    const { result, lines } = ensure(m, { uid: 1000 });
    expect(await result).toEqual({ ok: true, installed: ["python3-openpyxl", "bubblewrap"] });
    expect(lines).toContain(
      "running: sudo -n DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl bubblewrap",
    );
    expect(m.calls()).toEqual([
      "sudo -n true",
      "sudo -n DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl bubblewrap",
      "apt-get install -y -o DPkg::Lock::Timeout=300 python3-openpyxl bubblewrap [DEBIAN_FRONTEND=noninteractive]",
    ]);
  });

  it("SKILLOPT_NO_AUTO_INSTALL=1 is respected even as root", async () => {
    const m = machine();
    const result = await ensure(m, { uid: 0, env: { SKILLOPT_NO_AUTO_INSTALL: "1" } }).result;
    expect(result).toMatchObject({
      ok: false,
      reason: "SKILLOPT_NO_AUTO_INSTALL is set",
      command: "apt-get install -y python3-openpyxl bubblewrap",
    });
    expect(m.calls()).toEqual([]);
  });

  it("without apt-get it names the Debian command and the reason", async () => {
    const m = machine({ apt: false });
    const result = await ensure(m, { uid: 0 }).result;
    expect(result).toMatchObject({ ok: false, command: "apt-get install -y python3-openpyxl bubblewrap" });
    expect(!result.ok && result.reason).toMatch(/apt-get was not found/);
  });

  it("empty package lists (a fresh container): apt-get update runs first", async () => {
    const m = machine({ emptyLists: true });
    const { result, lines } = ensure(m, { uid: 0 });
    expect(await result).toMatchObject({ ok: true });
    expect(m.calls().map((c) => c.split(" ")[1])).toEqual(["update", "install"]);
    expect(lines).toContain("running: DEBIAN_FRONTEND=noninteractive apt-get update");
  });

  it("an install that fails for a stale list updates once and retries", async () => {
    const m = machine({ staleLists: true });
    expect(await ensure(m, { uid: 0 }).result).toMatchObject({ ok: true });
    expect(m.calls().map((c) => c.split(" ")[1])).toEqual(["install", "update", "install"]);
  });

  it("offline: the failure names apt-get update, its error and the command", async () => {
    const m = machine({ emptyLists: true, offline: true });
    const result = await ensure(m, { uid: 0 }).result;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(
      /^apt-get update failed \(exit 100; offline\?\): .*Temporary failure resolving 'deb.debian.org'/,
    );
    expect(result.message).toMatch(/Install them with: apt-get install -y python3-openpyxl bubblewrap$/);
    expect(m.calls().map((c) => c.split(" ")[1])).toEqual(["update"]);
  });

  it("apt-get succeeding without the package becoming detectable is a failure saying what was looked for", async () => {
    const m = machine({ installsNothing: true });
    const result = await ensure(m, {
      uid: 0,
      requirements: requirementsFor("spreadsheetbench").filter((r) => r.package === "bubblewrap"),
    }).result;
    expect(result).toMatchObject({ ok: false, missing: ["bubblewrap"] });
    expect(!result.ok && result.reason).toBe(
      "apt-get finished, but they are still not found (bubblewrap: looked for bwrap on PATH)",
    );
  });

  it("two callers at once share one apt-get", async () => {
    const m = machine();
    const [a, b] = await Promise.all([ensure(m, { uid: 0 }).result, ensure(m, { uid: 0 }).result]);
    expect(a).toEqual(b);
    expect(m.calls().filter((c) => c.startsWith("apt-get install"))).toHaveLength(1);
  });

  it("the test-suite needs cover services and e2e packages found under the fake root", async () => {
    const m = machine();
    const needs = requirementsFor("unit", "services", "e2e");
    const { result } = ensure(m, { uid: 0, requirements: needs });
    expect(await result).toEqual({
      ok: true,
      installed: ["redis-server", "postgresql", "chromium", "python3-openpyxl", "bubblewrap"],
    });
  });
});

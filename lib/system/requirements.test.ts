import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  aptListsEmpty,
  createProbe,
  missingRequirements,
  REQUIREMENTS,
  requirementsFor,
  requirementsTable,
} from "./index.mjs";
import { createFakeMachine, type FakeMachine } from "./testing-fakes";

const machines: FakeMachine[] = [];
afterEach(() => {
  for (const m of machines.splice(0)) m.cleanup();
});
function machine(): FakeMachine {
  const m = createFakeMachine({ apt: false, sudo: false });
  machines.push(m);
  return m;
}
const names = (rows: readonly { package: string }[]) => rows.map((r) => r.package);

describe("requirements", () => {
  it("each purpose lists its packages; a benchmark without system needs lists none", () => {
    expect(names(requirementsFor("spreadsheetbench"))).toEqual(["python3-openpyxl", "bubblewrap"]);
    expect(names(requirementsFor("redis"))).toEqual(["redis-server"]);
    expect(names(requirementsFor("unit"))).toEqual(["python3-openpyxl", "bubblewrap"]);
    expect(names(requirementsFor("services"))).toEqual(["redis-server", "postgresql"]);
    expect(names(requirementsFor("e2e"))).toEqual(["chromium"]);
    expect(requirementsFor("searchqa")).toEqual([]);
  });

  it("detection finds each package where it is installed, and nothing on an empty machine", () => {
    const m = machine();
    const probe = createProbe({ env: m.env, sysroot: m.sysroot });
    expect(names(missingRequirements(REQUIREMENTS, probe))).toEqual(names(REQUIREMENTS));
    for (const r of REQUIREMENTS) m.install(r.package);
    expect(missingRequirements(REQUIREMENTS, probe)).toEqual([]);
  });

  it("CHROMIUM_PATH and SKILLOPT_PYTHON are where chromium and openpyxl are looked for first", () => {
    const m = machine();
    const chrome = join(m.dir, "opt/chrome");
    const py = join(m.dir, "opt/python");
    mkdirSync(join(m.dir, "opt"));
    writeFileSync(chrome, "");
    writeFileSync(py, "#!/bin/sh\n[ \"$2\" = 'import openpyxl' ]\n", { mode: 0o755 });
    const probe = createProbe({ env: { ...m.env, CHROMIUM_PATH: chrome, SKILLOPT_PYTHON: py }, sysroot: m.sysroot });
    expect(names(missingRequirements(REQUIREMENTS, probe))).toEqual(["redis-server", "postgresql", "bubblewrap"]);
  });

  it("a Python that cannot import openpyxl does not count", () => {
    const m = machine();
    writeFileSync(join(m.bin, "python3"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    expect(
      names(missingRequirements(requirementsFor("spreadsheetbench"), createProbe({ env: m.env, sysroot: m.sysroot }))),
    ).toContain("python3-openpyxl");
  });

  it("apt lists count as empty until a Packages index exists", () => {
    const m = machine();
    const lists = join(m.dir, "fresh-lists");
    expect(aptListsEmpty(lists)).toBe(true);
    mkdirSync(join(lists, "partial"), { recursive: true });
    writeFileSync(join(lists, "lock"), "");
    expect(aptListsEmpty(lists)).toBe(true);
    writeFileSync(join(lists, "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4"), "");
    expect(aptListsEmpty(lists)).toBe(false);
  });

  it("the README table has one row per package, saying what needs it and how it is found", () => {
    const table = requirementsTable().split("\n");
    expect(table).toHaveLength(2 + REQUIREMENTS.length);
    expect(table).toContain("| `bubblewrap` | SpreadsheetBench runs, unit tests | `bwrap` on PATH |");
    expect(table).toContain(
      "| `redis-server` | integration and e2e tests, `npm start` when no Redis answers | `redis-server` on PATH |",
    );
  });
});

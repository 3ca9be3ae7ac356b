/**
 * A fake machine for the system-package tests: a PATH holding only fake `apt-get`/`sudo` (and whatever the
 * fake apt-get "installs"), a fake root for the fixed paths, an apt lists folder and a log of every
 * apt-get/sudo call. The fake apt-get creates what detection looks for, so the real installer path runs.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FakeAptOptions {
  /** `apt-get update` fails as without network. */
  offline?: boolean;
  /** `apt-get install` fails with "Unable to locate package" until `update` ran (stale lists). */
  staleLists?: boolean;
  /** The package lists start empty (a fresh container). */
  emptyLists?: boolean;
  /** `sudo -n true` succeeds (passwordless sudo); without it the fake sudo asks for a password. */
  passwordlessSudo?: boolean;
  /** Put a fake apt-get on PATH (default true). */
  apt?: boolean;
  /** Put a fake sudo on PATH (default true). */
  sudo?: boolean;
  /** apt-get succeeds but installs nothing detectable. */
  installsNothing?: boolean;
}

export interface FakeMachine {
  dir: string;
  bin: string;
  sysroot: string;
  listsDir: string;
  env: Record<string, string>;
  /** Every apt-get and sudo call, one line each ("apt-get install -y …", "sudo -n …"). */
  calls(): string[];
  /** Marks a package as already installed (creates what detection looks for). */
  install(pkg: string): void;
  cleanup(): void;
}

/** Where each package's detected file lands (relative to bin/ or to the fake root). */
const ARTIFACTS: Record<string, { in: "bin" | "root"; path: string }> = {
  "redis-server": { in: "bin", path: "redis-server" },
  bubblewrap: { in: "bin", path: "bwrap" },
  "python3-openpyxl": { in: "bin", path: "python3" },
  postgresql: { in: "root", path: "usr/lib/postgresql/15/bin/initdb" },
  chromium: { in: "root", path: "usr/bin/chromium" },
};

function writeExecutable(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** The fake apt-get: a node script (node's absolute path as interpreter: PATH holds only fakes). */
function aptScript(m: { log: string; bin: string; sysroot: string; listsDir: string }, o: FakeAptOptions): string {
  const cfg = JSON.stringify({ ...m, artifacts: ARTIFACTS, ...o });
  return `#!${process.execPath}
const fs = require("node:fs"), path = require("node:path");
const c = ${cfg};
const args = process.argv.slice(2);
fs.appendFileSync(c.log, "apt-get " + args.join(" ") + " [DEBIAN_FRONTEND=" + (process.env.DEBIAN_FRONTEND ?? "") + "]\\n");
const updated = path.join(c.listsDir, "fake_main_binary-amd64_Packages");
if (args[0] === "update") {
  if (c.offline) { console.error("Err:1 http://deb.debian.org/debian bookworm InRelease\\n  Temporary failure resolving 'deb.debian.org'"); process.exit(100); }
  fs.writeFileSync(updated, "");
  process.exit(0);
}
if (args[0] !== "install") process.exit(1);
const pkgs = args.slice(1).filter((a, i, all) => !a.startsWith("-") && all[i - 1] !== "-o");
if (!fs.existsSync(updated) && (c.staleLists || fs.readdirSync(c.listsDir).length === 0)) {
  console.error("E: Unable to locate package " + pkgs[0]); process.exit(100);
}
if (c.installsNothing) process.exit(0);
for (const p of pkgs) {
  const a = c.artifacts[p];
  if (!a) { console.error("E: Unable to locate package " + p); process.exit(100); }
  const file = path.join(a.in === "bin" ? c.bin : c.sysroot, a.path);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "#!/bin/sh\\nexit 0\\n");
  fs.chmodSync(file, 0o755);
}
`;
}

/** The fake sudo: `-n true` answers per `passwordless`; otherwise runs the command (VAR=value first). */
function sudoScript(log: string, passwordless: boolean): string {
  return `#!${process.execPath}
const fs = require("node:fs"), path = require("node:path"), { spawnSync } = require("node:child_process");
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, "sudo " + args.join(" ") + "\\n");
if (${!passwordless}) { console.error("sudo: a password is required"); process.exit(1); }
let rest = args[0] === "-n" ? args.slice(1) : args;
const env = { ...process.env };
while (rest.length && /^[A-Z_]+=/.test(rest[0])) { const [k, ...v] = rest[0].split("="); env[k] = v.join("="); rest = rest.slice(1); }
if (rest[0] === "true") process.exit(0);
const exe = process.env.PATH.split(":").map((d) => path.join(d, rest[0])).find((f) => fs.existsSync(f));
const r = spawnSync(exe, rest.slice(1), { env, stdio: "inherit" });
process.exit(r.status ?? 1);
`;
}

export function createFakeMachine(options: FakeAptOptions = {}): FakeMachine {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-sysreq-"));
  const bin = join(dir, "bin");
  const sysroot = join(dir, "root");
  const listsDir = join(dir, "lists");
  const log = join(dir, "calls.log");
  for (const d of [bin, sysroot, listsDir]) mkdirSync(d, { recursive: true });
  if (!options.emptyLists)
    writeFileSync(join(listsDir, "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4"), "");
  if (options.apt !== false) writeExecutable(join(bin, "apt-get"), aptScript({ log, bin, sysroot, listsDir }, options));
  if (options.sudo !== false) writeExecutable(join(bin, "sudo"), sudoScript(log, options.passwordlessSudo === true));
  return {
    dir,
    bin,
    sysroot,
    listsDir,
    env: { PATH: bin },
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : []),
    install(pkg) {
      const a = ARTIFACTS[pkg]!;
      const file = join(a.in === "bin" ? bin : sysroot, a.path);
      mkdirSync(join(file, ".."), { recursive: true });
      writeExecutable(file, "#!/bin/sh\nexit 0\n");
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// The system packages SkillOpt needs, in one table: the Debian package, how to tell it is installed, and
// what needs it. `npm test`, `npm start`, run preparation, `.ci/run` and the README table all read this
// table, so they cannot disagree. Plain ESM with node built-ins only: `.ci/run` runs it before `npm ci`.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** What needs the packages; a benchmark's purpose is its `env.name`. */
export const PURPOSES = {
  unit: "unit tests",
  services: "integration and e2e tests",
  e2e: "e2e tests (Playwright)",
  redis: "`npm start` when no Redis answers",
  spreadsheetbench: "SpreadsheetBench runs",
};

/** The interpreters SpreadsheetBench tries, in order (the same list as its Python resolver). */
export function pythonCandidates(env, systemPython = "/usr/bin/python3") {
  const list = [env.SKILLOPT_PYTHON?.trim() ?? "", "python3", systemPython].filter((c) => c !== "");
  return [...new Set(list)];
}

/**
 * Looks at the machine. `fixed()` puts the built-in absolute paths (/usr/bin/…, /usr/lib/postgresql) under
 * `sysroot` so tests can point detection at a fake tree; PATH lookups use `env.PATH`; paths the user set
 * (CHROMIUM_PATH, SKILLOPT_PYTHON) are taken as they are.
 */
export function createProbe({ env = process.env, sysroot = "" } = {}) {
  const fixed = (p) => (sysroot ? join(sysroot, p) : p);
  const isExecutable = (p) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  /** Absolute path of a command (a bare name is looked up on PATH), or null. */
  const which = (cmd) => {
    if (isAbsolute(cmd)) return isExecutable(cmd) ? cmd : null;
    for (const dir of (env.PATH ?? "").split(delimiter)) {
      if (dir && isExecutable(join(dir, cmd))) return join(dir, cmd);
    }
    return null;
  };
  return {
    env,
    fixed,
    which,
    exists: (p) => existsSync(p),
    /** True when the command runs and exits 0. */
    succeeds(cmd, args) {
      const exe = which(cmd);
      if (!exe) return false;
      return spawnSync(exe, args, { env, stdio: "ignore", timeout: 30_000 }).status === 0;
    },
    /** The newest /usr/lib/postgresql/<version>/bin that has initdb, or null. */
    pgBinDir() {
      const base = fixed("/usr/lib/postgresql");
      if (!existsSync(base)) return null;
      const versions = readdirSync(base)
        .filter((v) => existsSync(join(base, v, "bin/initdb")))
        .sort((a, b) => Number(b) - Number(a));
      return versions.length ? join(base, versions[0], "bin") : null;
    },
  };
}

/** One row per Debian package, in install order. */
export const REQUIREMENTS = [
  {
    package: "redis-server",
    neededFor: ["services", "redis"],
    lookFor: "`redis-server` on PATH",
    detect: (probe) => probe.which("redis-server") !== null,
  },
  {
    package: "postgresql",
    neededFor: ["services"],
    lookFor: "`/usr/lib/postgresql/*/bin/initdb`",
    detect: (probe) => probe.pgBinDir() !== null,
  },
  {
    package: "chromium",
    neededFor: ["e2e"],
    lookFor: "`$CHROMIUM_PATH`, else `/usr/bin/chromium`",
    detect: (probe) => probe.exists(probe.env.CHROMIUM_PATH || probe.fixed("/usr/bin/chromium")),
  },
  {
    package: "python3-openpyxl",
    neededFor: ["spreadsheetbench", "unit"],
    lookFor: "a Python that can `import openpyxl`: `$SKILLOPT_PYTHON`, `python3`, `/usr/bin/python3`",
    detect: (probe) =>
      pythonCandidates(probe.env, probe.fixed("/usr/bin/python3")).some((py) =>
        probe.succeeds(py, ["-c", "import openpyxl"]),
      ),
  },
  {
    package: "bubblewrap",
    neededFor: ["spreadsheetbench", "unit"],
    lookFor: "`bwrap` on PATH",
    detect: (probe) => probe.which("bwrap") !== null,
  },
];

/** The rows any of these purposes need (none for a purpose without system needs, e.g. `searchqa`). */
export function requirementsFor(...purposes) {
  return REQUIREMENTS.filter((r) => r.neededFor.some((p) => purposes.includes(p)));
}

/** The rows whose detection fails. */
export function missingRequirements(requirements, probe) {
  return requirements.filter((r) => !r.detect(probe));
}

/** The README's "System packages" table (markdown). */
export function requirementsTable() {
  const rows = REQUIREMENTS.map(
    (r) => `| \`${r.package}\` | ${r.neededFor.map((p) => PURPOSES[p]).join(", ")} | ${r.lookFor} |`,
  );
  return ["| Debian package | Needed for | Found as |", "|---|---|---|", ...rows].join("\n");
}

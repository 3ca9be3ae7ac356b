// Types of lib/system/index.mjs (plain ESM so `.ci/run` can use it before `npm ci`).

/** What needs a package: the test suites, `npm start`'s Redis, or a benchmark by its `env.name`. */
export type Purpose = "unit" | "services" | "e2e" | "redis" | "spreadsheetbench";

export type Vars = Readonly<Record<string, string | undefined>>;

export interface Probe {
  env: Vars;
  /** A built-in absolute path, under the test's fake root when there is one. */
  fixed(path: string): string;
  which(cmd: string): string | null;
  exists(path: string): boolean;
  succeeds(cmd: string, args: string[]): boolean;
  pgBinDir(): string | null;
}

export interface Requirement {
  /** Debian package name. */
  package: string;
  neededFor: Purpose[];
  /** How detection finds it, for messages and the README. */
  lookFor: string;
  detect(probe: Probe): boolean;
}

export interface Facts {
  optOut: boolean;
  root: boolean;
  apt: boolean;
  sudo: boolean;
  sudoInstalled: boolean;
}

export type InstallPlan =
  | { kind: "none" }
  | { kind: "install"; via: "root" | "sudo"; packages: string[] }
  | { kind: "manual"; packages: string[]; reason: string; command: string };

export type EnsureResult =
  | { ok: true; installed: string[] }
  | { ok: false; missing: string[]; reason: string; command: string; message: string };

export interface EnsureOptions {
  purpose?: string;
  say?: (line: string) => void;
  env?: Vars;
  uid?: number;
  sysroot?: string;
  listsDir?: string;
}

export const PURPOSES: Record<Purpose, string>;
export const REQUIREMENTS: readonly Requirement[];
export function pythonCandidates(env: Vars, systemPython?: string): string[];
export function createProbe(opts?: { env?: Vars; sysroot?: string }): Probe;
export function requirementsFor(...purposes: string[]): Requirement[];
export function missingRequirements(requirements: readonly Requirement[], probe: Probe): Requirement[];
export function requirementsTable(): string;
export function optedOut(env: Vars): boolean;
export function gatherFacts(probe: Probe, uid?: number): Facts;
export function manualCommand(packages: readonly string[], root: boolean): string;
export function planInstall(packages: string[], facts: Facts): InstallPlan;
export function aptListsEmpty(dir?: string): boolean;
export function runInstallPlan(
  plan: Extract<InstallPlan, { kind: "install" }>,
  opts?: { env?: Vars; say?: (line: string) => void; listsDir?: string },
): Promise<{ ok: true } | { ok: false; reason: string }>;
export function ensurePackages(requirements: readonly Requirement[], options?: EnsureOptions): Promise<EnsureResult>;

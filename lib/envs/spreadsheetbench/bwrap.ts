/**
 * The kernel sandbox for model-written code: bubblewrap (`bwrap`). Each script gets fresh namespaces
 * (no network at all, its own PID namespace so every child dies with the sandbox's init), no
 * capabilities, a read-only view of only what the interpreter needs, an empty read-only /tmp, fresh
 * /proc and a minimal /dev, and exactly one writable folder: its task folder. Nothing else of the host
 * is visible — not /etc/passwd, not HOME, not the project or `.skillopt/`.
 *
 * Whether the sandbox works here is probed once per interpreter and environment (a real sandboxed
 * `import openpyxl`) and cached with the reason when it does not.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";
import { DEFAULT_PATH, scrubbedEnv } from "./python";

/** Where the task folder appears inside the sandbox (also HOME, TMPDIR and the working directory). */
export const TASK_DIR = "/task";
/** Where our Python helpers appear inside the sandbox, read-only. */
export const HELPERS_DIR = "/helpers";

/** Top-level system folders bound read-only (or recreated as the same symlinks, on merged-/usr systems). */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** The only files of /etc a Python process needs: the dynamic linker's cache and the time zone. */
const ETC_FILES = ["/etc/ld.so.cache", "/etc/localtime"];

/** What of the host a sandboxed interpreter sees. */
export interface SandboxLayout {
  /** The interpreter's executable as it reports itself (a pyenv shim resolves to the real interpreter). */
  executable: string;
  /** `--symlink`/`--ro-bind` arguments for the system folders. */
  system: string[];
  /** Folders outside the system ones the interpreter needs (its prefix, a venv, PYTHONPATH), read-only. */
  roots: string[];
}

/** How model-written code is isolated: bubblewrap, or nothing (only when the run opted in). */
export type Isolation = { kind: "bwrap"; bwrap: string; layout: SandboxLayout } | { kind: "none"; reason: string };

/** Extra mounts of one sandbox. */
export interface SandboxMounts {
  /** Host folder mounted writable at `TASK_DIR`. */
  task?: string;
  /** Host folder of our helpers, mounted read-only at `HELPERS_DIR`. */
  helpers: string;
  /** Host folders mounted read-only at their own paths (skipped when missing). */
  readable?: readonly string[];
}

/** True when `child` is `parent` or inside it. */
function within(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The first executable called `name` on PATH (the default PATH when unset, as for the interpreter), or null. */
export function findOnPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar || DEFAULT_PATH).split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return null;
}

function systemArgs(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    const stat = lstatSync(dir);
    if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  return args;
}

const LAYOUT_SCRIPT = [
  "import json, os, sys",
  "exe = os.path.abspath(sys.executable)",
  "paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(exe)]",
  "print(json.dumps({'executable': exe, 'paths': paths + [p for p in sys.path if p]}))",
].join("\n");

/**
 * The folders an interpreter needs outside the system ones, found by asking it. Each is bound at its
 * own path and, when a symlink leads there, at its real path too. A folder that would expose a
 * protected path (one of its ancestors: the project, HOME) or the whole disk is never bound; the probe
 * then fails with the interpreter's own error instead of widening the view.
 */
export function interpreterLayout(
  python: string,
  vars: Readonly<Record<string, string | undefined>>,
  protect: readonly string[],
): SandboxLayout | { error: string } {
  const probe = spawnSync(python, ["-c", LAYOUT_SCRIPT], {
    env: scrubbedEnv(vars, "/tmp") as NodeJS.ProcessEnv,
    timeout: 30_000,
    encoding: "utf8",
  });
  if (probe.status !== 0) return { error: `cannot start ${python}: ${probe.error?.message ?? lastLine(probe.stderr)}` };
  // The executable keeps the path it was started by: a venv finds its pyvenv.cfg next to it.
  let info: { executable: string; paths: string[] };
  try {
    info = JSON.parse(lastLine(probe.stdout)) as typeof info;
  } catch {
    return { error: `${python} did not describe its folders (got: ${lastLine(probe.stdout).slice(0, 200)})` };
  }
  const system = SYSTEM_DIRS.filter(existsSync).map((d) => realpathSync(d));
  const guarded = protect.filter((p) => p !== "" && existsSync(p)).flatMap((p) => [path.resolve(p), realpathSync(p)]);
  const candidates = [...info.paths, ...(vars.LD_LIBRARY_PATH ?? "").split(":")]
    .filter((p) => p !== "" && path.isAbsolute(p) && existsSync(p))
    .flatMap((p) => [path.resolve(p), realpathSync(p)])
    .filter(
      (p) =>
        p !== path.parse(p).root &&
        !system.some((s) => within(realpathSync(p), s)) &&
        !guarded.some((g) => within(g, p)),
    )
    .sort((a, b) => a.length - b.length);
  const roots: string[] = [];
  for (const p of candidates) if (!roots.some((r) => within(p, r))) roots.push(p);
  return { executable: info.executable, system: systemArgs(), roots };
}

function lastLine(text: string): string {
  return text.trim().split(/\r?\n/).pop() ?? "";
}

/** The bwrap arguments (before `--` and the command) for one sandbox. */
export function sandboxArgs(layout: SandboxLayout, mounts: SandboxMounts): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", ...layout.system];
  for (const file of ETC_FILES) args.push("--ro-bind-try", file, file);
  // The fresh /tmp comes before the interpreter's folders: a venv may live under the host's /tmp.
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  for (const root of layout.roots) args.push("--ro-bind", root, root);
  for (const dir of mounts.readable ?? []) args.push("--ro-bind-try", dir, dir);
  args.push("--ro-bind", mounts.helpers, HELPERS_DIR);
  if (mounts.task !== undefined) args.push("--bind", mounts.task, TASK_DIR, "--chdir", TASK_DIR);
  else args.push("--chdir", "/");
  // Last, once every mount point exists: /tmp, /dev (its nodes still work; /dev/shm no longer takes
  // files) and the sandbox's own root become read-only. Remounts are not recursive: /task stays writable.
  args.push("--remount-ro", "/tmp", "--remount-ro", "/dev", "--remount-ro", "/");
  return args;
}

/** Options of `probeIsolation`. */
export interface ProbeOptions {
  python: string;
  vars: Readonly<Record<string, string | undefined>>;
  pythonDir: string;
  /** Paths the sandbox must never expose (the project root, HOME). */
  protect: readonly string[];
}

/** Whether bubblewrap works here: the sandbox to use, or why there is none. */
export type ProbeResult = { ok: true; bwrap: string; layout: SandboxLayout } | { ok: false; reason: string };

const probeCache = new Map<string, ProbeResult>();

/**
 * Finds `bwrap` on `vars.PATH` and checks that a sandboxed interpreter can import openpyxl (so missing
 * namespaces, an old bwrap or an interpreter that needs a hidden folder are all found before any model
 * call). Cached per interpreter, PATH, environment and protected paths, failures included.
 */
export function probeIsolation(opts: ProbeOptions): ProbeResult {
  const key = JSON.stringify([opts.python, opts.pythonDir, opts.protect, scrubbedEnv(opts.vars, "/")]);
  const hit = probeCache.get(key);
  if (hit) return hit;
  const result = probeUncached(opts);
  probeCache.set(key, result);
  return result;
}

function probeUncached(opts: ProbeOptions): ProbeResult {
  const bwrap = findOnPath("bwrap", opts.vars.PATH);
  if (bwrap === null) return { ok: false, reason: "bubblewrap (bwrap) is not installed or not on PATH" };
  const layout = interpreterLayout(opts.python, opts.vars, opts.protect);
  if ("error" in layout) return { ok: false, reason: layout.error };
  const args = [...sandboxArgs(layout, { helpers: opts.pythonDir }), "--", layout.executable, "-c", "import openpyxl"];
  const trial = spawnSync(bwrap, args, {
    env: scrubbedEnv(opts.vars, "/tmp") as NodeJS.ProcessEnv,
    timeout: 30_000,
    encoding: "utf8",
  });
  if (trial.status === 0) return { ok: true, bwrap, layout };
  const why = trial.error?.message ?? (lastLine(trial.stderr) || `exit code ${String(trial.status)}`);
  return { ok: false, reason: `${bwrap} cannot start a sandbox here (${why})` };
}

/** The config key that lets a run go without the sandbox. */
export const UNSANDBOXED_FIELD = "env.allow_unsandboxed";

/**
 * The isolation a run gets: bubblewrap when it works; otherwise a refusal (before any model call)
 * unless the run set `env.allow_unsandboxed: true`, in which case scripts run as plain processes.
 */
export function chooseIsolation(probe: ProbeResult, allowUnsandboxed: boolean): Isolation {
  if (probe.ok) return { kind: "bwrap", bwrap: probe.bwrap, layout: probe.layout };
  if (allowUnsandboxed) return { kind: "none", reason: probe.reason };
  const message =
    `SpreadsheetBench runs model-written Python only inside the bubblewrap sandbox, and it is unavailable: ${probe.reason}. ` +
    `Install it (apt-get install bubblewrap), or set ${UNSANDBOXED_FIELD}: true to run the scripts without a sandbox on a machine you trust`;
  throw new AppError("UNAVAILABLE", message, { userMessage: message, field: UNSANDBOXED_FIELD });
}

/** The warning a run without the sandbox prints (CLI) and logs (worker). */
export function unsandboxedWarning(reason: string): string {
  return `SpreadsheetBench scripts run WITHOUT a sandbox (${UNSANDBOXED_FIELD}: true; ${reason}): model-written code can read your files and reach the network`;
}

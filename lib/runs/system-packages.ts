/**
 * The system packages a run's benchmark needs (lib/system's table, keyed by `env.name`), made sure of
 * before the run is prepared: environment construction (SpreadsheetBench's Python and sandbox) would
 * otherwise refuse. Installing runs apt-get asynchronously so a worker keeps its heartbeats meanwhile.
 */
import type { RunConfig } from "../contracts/run-config";
import { canonicalBenchmark, findBenchmark } from "../envs/catalog";
import { AppError } from "../errors";
import {
  createProbe,
  ensurePackages,
  gatherFacts,
  missingRequirements,
  planInstall,
  requirementsFor,
  type Vars,
} from "../system/index.mjs";

export interface RunPackagesOptions {
  /**
   * Install what is missing when the machine allows it (worker, CLI, creating a run); false only checks
   * (the estimate, which changes nothing).
   */
  install: boolean;
  /** Where the apt-get commands are printed (the worker log, the CLI's stderr, the server log). */
  say: (line: string) => void;
  /** PATH and the variables detection reads (SKILLOPT_PYTHON, SKILLOPT_NO_AUTO_INSTALL…). */
  env: Vars;
  /** For tests: the user id, a fake root for fixed paths and a fake apt lists folder. */
  machine?: { uid?: number; sysroot?: string; listsDir?: string };
}

/** Resolves when the benchmark's packages are there; otherwise an `UNAVAILABLE` error naming them and the command. */
export async function ensureRunPackages(config: RunConfig, opts: RunPackagesOptions): Promise<void> {
  const name = canonicalBenchmark(config.env.name) ?? config.env.name;
  // A run that opted out of the sandbox runs its scripts as plain processes: bubblewrap is not needed.
  const unsandboxed = (config.env as Record<string, unknown>).allow_unsandboxed === true;
  const requirements = requirementsFor(name).filter((r) => !(unsandboxed && r.package === "bubblewrap"));
  if (requirements.length === 0) return;
  const purpose = findBenchmark(name)?.title.split(":")[0] ?? name;
  const machine = { env: opts.env, ...opts.machine };
  if (!opts.install) {
    const missing = missingRequirements(requirements, createProbe(machine)).map((r) => r.package);
    if (missing.length === 0) return;
    const plan = planInstall(missing, gatherFacts(createProbe(machine), machine.uid));
    const message =
      plan.kind === "manual"
        ? `${purpose} needs these system packages: ${missing.join(", ")} — ${plan.reason}. Install them with: ${plan.command}`
        : `${purpose} needs these system packages: ${missing.join(", ")}; they are not installed yet and will be installed when the run is created`;
    throw unavailable(message, plan.kind === "manual" ? missing : []);
  }
  const result = await ensurePackages(requirements, { ...machine, purpose, say: opts.say });
  if (!result.ok)
    throw unavailable(
      result.message,
      requirements.map((r) => r.package),
    );
}

/** The refusal; without bubblewrap it also names the sandbox opt-out, the other way forward. */
function unavailable(message: string, missing: readonly string[]): AppError {
  const text = missing.includes("bubblewrap")
    ? `${message} (or set env.allow_unsandboxed: true in a config file to run model-written code without a sandbox, on a machine you trust)`
    : message;
  return new AppError("UNAVAILABLE", text, { userMessage: text, field: "env.name" });
}

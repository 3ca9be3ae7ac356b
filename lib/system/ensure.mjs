// The one entry point: are these requirements met; if not, install them when this machine allows it
// (root or passwordless sudo, apt-get, no opt-out), printing each command; otherwise say the one command
// to run and why it was not run here.
import { runInstallPlan } from "./install.mjs";
import { gatherFacts, manualCommand, planInstall } from "./plan.mjs";
import { createProbe, missingRequirements } from "./requirements.mjs";

/** Concurrent callers in one process (two runs starting at once) share one apt-get. */
const inFlight = new Map();

function failure(purpose, packages, reason, command) {
  return {
    ok: false,
    missing: packages,
    reason,
    command,
    message: `${purpose} needs these system packages: ${packages.join(", ")} — ${reason}. Install them with: ${command}`,
  };
}

async function installMissing(requirements, missing, opts) {
  const { purpose, say, env, sysroot, listsDir, uid } = opts;
  const packages = missing.map((r) => r.package);
  const facts = gatherFacts(createProbe({ env, sysroot }), uid);
  const plan = planInstall(packages, facts);
  if (plan.kind === "manual") return failure(purpose, packages, plan.reason, plan.command);
  const list = packages.join(", ");
  say(
    `${purpose} needs ${list}; installing ${packages.length === 1 ? "it" : "them"} now (SKILLOPT_NO_AUTO_INSTALL=1 turns this off)`,
  );
  const done = await runInstallPlan(plan, { env, say, listsDir });
  const command = manualCommand(packages, facts.root);
  if (!done.ok) return failure(purpose, packages, done.reason, command);
  const still = missingRequirements(requirements, createProbe({ env, sysroot }));
  if (still.length > 0) {
    const looked = still.map((r) => `${r.package}: looked for ${r.lookFor.replaceAll("`", "")}`).join("; ");
    return failure(
      purpose,
      still.map((r) => r.package),
      `apt-get finished, but they are still not found (${looked})`,
      command,
    );
  }
  say(`installed ${list}`);
  return { ok: true, installed: packages };
}

/**
 * Makes sure `requirements` (rows of REQUIREMENTS) are met. Resolves `{ ok: true, installed }` (empty when
 * nothing was missing: apt-get is not called at all) or `{ ok: false, missing, reason, command, message }`.
 * Options: `purpose` (words for messages, e.g. "npm test"), `say` (progress lines), `env` (PATH and the
 * variables detection reads; default process.env); tests also pass `uid`, `sysroot` and `listsDir`.
 */
export async function ensurePackages(requirements, options = {}) {
  const opts = {
    purpose: "SkillOpt",
    say: () => {},
    env: process.env,
    sysroot: "",
    listsDir: undefined,
    uid: undefined,
    ...options,
  };
  const missing = missingRequirements(requirements, createProbe(opts));
  if (missing.length === 0) return { ok: true, installed: [] };
  const key = JSON.stringify([missing.map((r) => r.package), opts.sysroot, opts.env.PATH]);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = installMissing(requirements, missing, opts).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

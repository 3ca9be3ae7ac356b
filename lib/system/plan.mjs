// Deciding whether missing packages can be installed here, and how. `planInstall` is pure; `gatherFacts`
// asks the machine (user id, apt-get, passwordless sudo, the opt-out variable).

/** Waiting for another apt/dpkg (a second `npm test`, the worker) instead of failing on its lock. */
export const LOCK_WAIT = ["-o", "DPkg::Lock::Timeout=300"];

/** The opt-out: SKILLOPT_NO_AUTO_INSTALL=1 (or true/yes). */
export function optedOut(env) {
  return /^(1|true|yes)$/i.test((env.SKILLOPT_NO_AUTO_INSTALL ?? "").trim());
}

/**
 * What the planner needs to know about the machine. Passwordless sudo is only probed when it matters
 * (not root, apt present, not opted out) because `sudo -n true` may log a failed attempt.
 */
export function gatherFacts(probe, uid = process.getuid?.() ?? -1) {
  const optOut = optedOut(probe.env);
  const root = uid === 0;
  const apt = probe.which("apt-get") !== null;
  const sudoPath = probe.which("sudo");
  const sudo = !root && apt && !optOut && sudoPath !== null && probe.succeeds("sudo", ["-n", "true"]);
  return { optOut, root, apt, sudo, sudoInstalled: sudoPath !== null };
}

/** The command a person would type (root needs no sudo). */
export function manualCommand(packages, root) {
  return `${root ? "" : "sudo "}apt-get install -y ${packages.join(" ")}`;
}

/**
 * The decision for these missing packages: nothing to do, install as root or through `sudo -n`, or a
 * manual step with the reason it cannot be done here.
 */
export function planInstall(packages, facts) {
  if (packages.length === 0) return { kind: "none" };
  const manual = (reason) => ({ kind: "manual", packages, reason, command: manualCommand(packages, facts.root) });
  if (facts.optOut) return manual("SKILLOPT_NO_AUTO_INSTALL is set");
  if (!facts.apt) return manual("apt-get was not found; on other systems install the equivalent packages");
  if (facts.root) return { kind: "install", via: "root", packages };
  if (facts.sudo) return { kind: "install", via: "sudo", packages };
  return manual(
    facts.sudoInstalled
      ? "not running as root, and sudo asks for a password"
      : "not running as root, and sudo is not installed",
  );
}

// Running apt-get for a plan: print each command exactly as run, refresh the package lists first when they
// are empty (a fresh container) and once more when an install fails for a stale or missing list.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { LOCK_WAIT } from "./plan.mjs";

export const APT_LISTS_DIR = "/var/lib/apt/lists";

/** True when apt has no package index yet (only `lock`, `partial/`, `auxfiles/`). */
export function aptListsEmpty(dir = APT_LISTS_DIR) {
  if (!existsSync(dir)) return true;
  return !readdirSync(dir).some((f) => f.includes("_Packages"));
}

/** apt-get's words for "this package is not in the lists I have" (stale or missing index). */
const STALE_LISTS = /Unable to locate package|has no installation candidate|Failed to fetch|404\s+Not Found/i;

/** Runs a command without blocking the event loop; output is kept (the tail goes into failure reasons). */
function runCommand(argv, env) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (d) => {
      output = (output + d.toString("utf8")).slice(-8192);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (err) => resolve({ code: null, output: `${output}\n${err.message}` }));
    child.on("close", (code) => resolve({ code, output }));
  });
}

function lastLines(text, n = 3) {
  return text
    .trim()
    .split("\n")
    .slice(-n)
    .map((l) => l.trim())
    .join(" / ");
}

/**
 * Carries out an `install` plan. Resolves `{ ok: true }` or `{ ok: false, reason }`; never throws for
 * apt-get's own failures.
 */
export async function runInstallPlan(plan, { env = process.env, say = () => {}, listsDir = APT_LISTS_DIR } = {}) {
  const childEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  // Under sudo the variable is passed on the command line: sudo resets the environment.
  const prefix = plan.via === "sudo" ? ["sudo", "-n", "DEBIAN_FRONTEND=noninteractive", "apt-get"] : ["apt-get"];
  const shown = (argv) => (plan.via === "sudo" ? argv : ["DEBIAN_FRONTEND=noninteractive", ...argv]).join(" ");
  const step = async (args) => {
    const argv = [...prefix, ...args];
    say(`running: ${shown(argv)}`);
    return runCommand(argv, childEnv);
  };
  const update = async () => {
    const r = await step(["update"]);
    return r.code === 0 ? null : `apt-get update failed (exit ${r.code}; offline?): ${lastLines(r.output)}`;
  };
  let updated = false;
  if (aptListsEmpty(listsDir)) {
    const failed = await update();
    if (failed) return { ok: false, reason: failed };
    updated = true;
  }
  const install = ["install", "-y", ...LOCK_WAIT, ...plan.packages];
  let r = await step(install);
  if (r.code !== 0 && !updated && STALE_LISTS.test(r.output)) {
    const failed = await update();
    if (failed) return { ok: false, reason: failed };
    r = await step(install);
  }
  if (r.code !== 0) return { ok: false, reason: `apt-get install failed (exit ${r.code}): ${lastLines(r.output)}` };
  return { ok: true };
}

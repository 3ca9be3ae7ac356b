/**
 * The checks on a Sleep project that need the machine. A request is not the machine's user: every path it
 * names must lie (after resolving links) inside the Sleep roots (`SKILLOPT_SLEEP_ROOTS`, default the
 * home folder), the project folder must exist, the cron pattern must parse, and the backend must be one
 * the worker can run unattended. Each refusal names its field.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, resolve, sep } from "node:path";
import { env } from "@/lib/config/env";
import type { SleepProjectInput } from "@/lib/contracts/sleep";
import { AppError } from "@/lib/errors";
import { resolveSleepBackend } from "@/lib/sleep/backend/names";
import { assertCronPattern } from "@/lib/sleep/schedule";

export function sleepRoots(): string[] {
  const roots = env().SKILLOPT_SLEEP_ROOTS;
  return (roots.length > 0 ? roots : [homedir()])
    .map((r) => resolve(r))
    .filter(existsSync)
    .map((r) => realpathSync(r));
}

/** The real location of `p`: its nearest existing ancestor resolved, the rest appended. */
function realLocation(p: string): string {
  let head = resolve(p);
  const tail: string[] = [];
  while (!existsSync(head)) {
    const up = dirname(head);
    if (up === head) break;
    tail.unshift(head.slice(up.length).replace(/^[/\\]/, ""));
    head = up;
  }
  return resolve(realpathSync(head), ...tail);
}

function insideRoots(field: string, p: string, roots: string[]): void {
  const real = realLocation(p);
  if (!roots.some((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep))) {
    throw new AppError(
      "INVALID_REQUEST",
      `${field}: ${p} is outside the folders Sleep projects may use (SKILLOPT_SLEEP_ROOTS: ${roots.join(", ") || "none"})`,
      { field },
    );
  }
}

export function checkProjectInput(input: SleepProjectInput): void {
  const roots = sleepRoots();
  insideRoots("directory", input.directory, roots);
  if (!existsSync(input.directory) || !statSync(input.directory).isDirectory()) {
    throw new AppError("INVALID_REQUEST", `directory: ${input.directory} is not a folder`, { field: "directory" });
  }
  for (const field of ["transcriptHome", "targetSkillPath", "tasksFile"] as const) {
    if (input[field]) insideRoots(field, input[field], roots);
  }
  // Adopt writes the live skill: a request may name a markdown skill file, never a dotfile or a script.
  if (input.targetSkillPath && !/\.md$/i.test(input.targetSkillPath)) {
    throw new AppError(
      "INVALID_REQUEST",
      `targetSkillPath: ${input.targetSkillPath} is not a markdown skill file (.md); adopt writes this file`,
      { field: "targetSkillPath" },
    );
  }
  if (input.tasksFile && !existsSync(input.tasksFile))
    throw new AppError("INVALID_REQUEST", `tasksFile: ${input.tasksFile} does not exist`, { field: "tasksFile" });
  if (input.cronPattern) assertCronPattern(input.cronPattern, "cronPattern");
  if (input.enabled && !input.cronPattern)
    throw new AppError("INVALID_REQUEST", "cronPattern: a schedule that is on needs a cron pattern", {
      field: "cronPattern",
    });
  if (resolveSleepBackend(input.backend, "backend") === "handoff") {
    throw new AppError(
      "INVALID_REQUEST",
      "backend: the handoff backend needs a person to answer its prompts; use the CLI for it",
      { field: "backend" },
    );
  }
}

/**
 * Adopting a staged night, with the CLI's selection rules (spec D.13) as a library call that returns a
 * typed result. The managed pair is adopted by default (or with `legacy`); a fan-out night needs an explicit
 * choice (`skills` or `allSkills`), otherwise the available skills are returned. `code` is the exit status
 * the CLI uses: 1 nothing to adopt or unreadable, 2 a refusal or a bad selection.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { adoptManaged, adoptSkills } from "./staging/adopt";
import { pendingSkillRows, readManifest } from "./staging/manifest";
import { latestStaging, StagingError } from "./staging/root";

export interface AdoptRequest {
  project: string;
  /** A specific night; default: the latest. */
  staging?: string;
  skills?: string[];
  allSkills?: boolean;
  legacy?: boolean;
}

export type AdoptOutcome =
  | {
      ok: true;
      stagingDir: string;
      mode: "legacy" | "skills";
      adoptedSkills: Array<{ skillName: string; liveSkillPath: string; backupPath: string }>;
      updatedPaths: string[];
    }
  | {
      ok: false;
      code: 1 | 2;
      error:
        | "no_staging"
        | "invalid_selection"
        | "invalid_staging"
        | "no_staged_skills"
        | "selection_required"
        | "adoption_refused"
        | "adoption_failed";
      message: string;
      stagingDir: string;
      availableSkills?: Array<{ skillName: string; liveSkillPath: string }>;
    };

function attempt(stagingDir: string, run: () => AdoptOutcome): AdoptOutcome {
  try {
    return run();
  } catch (err) {
    if (err instanceof StagingError)
      return { ok: false, code: 2, error: "adoption_refused", message: `adopt refused: ${err.message}`, stagingDir };
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined && typeof code === "string" && code.startsWith("E"))
      return {
        ok: false,
        code: 1,
        error: "adoption_failed",
        message: `adopt failed: ${(err as Error).message}`,
        stagingDir,
      };
    throw err;
  }
}

export function adoptNight(req: AdoptRequest): AdoptOutcome {
  const dir = req.staging ? resolve(req.staging) : (latestStaging(req.project) ?? "");
  if (!dir || !existsSync(dir) || !statSync(dir).isDirectory())
    return { ok: false, code: 1, error: "no_staging", message: "nothing to adopt (no staged night)", stagingDir: dir };
  const names = req.skills ?? [];
  if (names.some((n) => n.trim() === ""))
    return {
      ok: false,
      code: 2,
      error: "invalid_selection",
      message: "--skill names must be non-empty",
      stagingDir: dir,
    };
  if ([names.length > 0, req.allSkills === true, req.legacy === true].filter(Boolean).length > 1) {
    return {
      ok: false,
      code: 2,
      error: "invalid_selection",
      message: "use exactly one of --skill, --all-skills or --legacy",
      stagingDir: dir,
    };
  }
  let rows;
  let pending;
  try {
    const m = readManifest(dir);
    rows = m.skills ?? [];
    pending = pendingSkillRows(dir, m);
  } catch (err) {
    return {
      ok: false,
      code: 1,
      error: "invalid_staging",
      message: `cannot read the staged night: ${(err as Error).message}`,
      stagingDir: dir,
    };
  }
  const managed = (): AdoptOutcome => ({
    ok: true,
    stagingDir: dir,
    mode: "legacy",
    adoptedSkills: [],
    updatedPaths: adoptManaged(dir),
  });
  if (req.legacy) return attempt(dir, managed);
  if (names.length > 0 || req.allSkills) {
    if (rows.length === 0)
      return {
        ok: false,
        code: 2,
        error: "no_staged_skills",
        message: "this night has no per-skill proposals; omit --skill to adopt the managed pair",
        stagingDir: dir,
      };
    const chosen = req.allSkills ? pending.map((r) => r.skill_name) : names.map((n) => n.trim());
    return attempt(dir, () => {
      const receipts = adoptSkills(dir, chosen);
      return {
        ok: true,
        stagingDir: dir,
        mode: "skills",
        adoptedSkills: receipts,
        updatedPaths: receipts.map((r) => r.liveSkillPath),
      };
    });
  }
  if (rows.length > 0) {
    return {
      ok: false,
      code: 2,
      error: "selection_required",
      message:
        "this night staged per-skill proposals; pass --skill NAME or --all-skills, or --legacy for its managed proposal",
      stagingDir: dir,
      availableSkills: rows.map((r) => ({ skillName: r.skill_name, liveSkillPath: r.live_skill_path })),
    };
  }
  return attempt(dir, managed);
}

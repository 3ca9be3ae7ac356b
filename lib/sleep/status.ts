/**
 * `sleep status` as data (spec D.13): the night counter, the last nights, the latest staged night and what
 * in it is still waiting for adoption. A staging folder that cannot be read is reported, not thrown.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stateDirOf, type SleepConfig } from "./config";
import { hasPendingManaged, pendingSkillRows, readManifest } from "./staging/manifest";
import { latestStaging } from "./staging/root";
import { SleepState, type HandoffWaiting, type NightSummary } from "./state";
import { isSymlink } from "./fs-safe";

export interface SleepStatus {
  night: number;
  statePath: string;
  project: string;
  historyTail: NightSummary[];
  latestStaging: string | null;
  slowMemoryChars: number;
  stagedSkills: string[];
  adoptedSkills: string[];
  hasManagedProposal: boolean;
  /** A handoff night of this project waiting for answers, or null. */
  handoffWaiting: HandoffWaiting | null;
  stagingError?: string;
  /** The latest night's report.md (for the text view). */
  reportMd?: string;
}

export function sleepStatus(cfg: SleepConfig): SleepStatus {
  const state = SleepState.load(stateDirOf(cfg));
  const project = cfg.invoked_project;
  const latest = latestStaging(project);
  const out: SleepStatus = {
    night: state.night,
    statePath: state.path,
    project,
    historyTail: state.data.history.slice(-5),
    latestStaging: latest,
    slowMemoryChars: state.data.slowMemory.length,
    stagedSkills: [],
    adoptedSkills: [],
    hasManagedProposal: false,
    handoffWaiting: state.handoffWaitingFor(project),
  };
  if (!latest) return out;
  try {
    const m = readManifest(latest);
    const pending = pendingSkillRows(latest, m).map((r) => r.skill_name);
    out.stagedSkills = pending;
    out.adoptedSkills = (m.skills ?? []).map((r) => r.skill_name).filter((n) => !pending.includes(n));
    out.hasManagedProposal = hasPendingManaged(latest, m);
    const report = join(latest, "report.md");
    if (existsSync(report) && !isSymlink(report)) out.reportMd = readFileSync(report, "utf8");
  } catch (err) {
    out.stagingError = (err as Error).message;
  }
  return out;
}

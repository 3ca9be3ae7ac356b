/**
 * Multi-skill fan-out (spec D.9, opt-in): tasks grouped by the skill their session used; each group with a
 * resolvable live SKILL.md runs its own consolidation (memory read-only, recall limited to the same
 * skill) and gets its own gate decision. One group's failure is recorded on its row and never stops the
 * others; a handoff pause or an unusable backend still stops the night.
 */
import { readFileSync } from "node:fs";
import { redactText } from "../contracts/redact";
import { PendingCalls, SleepBackendError } from "./backend/types";
import type { ConsolidateDeps } from "./consolidate";
import { dreamConsolidate, type DreamOptions } from "./dream";
import { sha256Hex } from "./fs-safe";
import { groupTasksBySkillHint } from "./mine";
import { resolveSkill } from "./skill-resolver";
import type { ConsolidationResult, SkillGroupReport, SkillGroupStatus, TaskRecord } from "./types";

export interface GroupOutcome {
  skillName: string;
  status: SkillGroupStatus;
  result: ConsolidationResult | null;
  reason: string;
  nTasks: number;
  /** The live file the group's baseline was read from (not for the managed catch-all). */
  livePath: string;
  liveSha256: string;
}

export interface SkillProposal {
  skillName: string;
  proposedSkill: string;
  livePath: string;
  liveSha256: string;
}

export interface FanoutInput {
  tasks: readonly TaskRecord[];
  managedName: string;
  managedSkill: string;
  memory: string;
  roots: readonly string[];
  history: readonly TaskRecord[];
  options: Omit<DreamOptions, "history" | "evolveMemory">;
}

const oneLine = (s: string) =>
  redactText(s)
    // eslint-disable-next-line no-control-regex -- control characters are what this strips
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

function skipped(name: string, reason: string, nTasks: number): GroupOutcome {
  return { skillName: name, status: "skipped", result: null, reason, nTasks, livePath: "", liveSha256: "" };
}

/** Per-group outcomes in first-seen order, plus notes for groups that were skipped. Empty when only the catch-all exists. */
export async function consolidateGroups(
  deps: ConsolidateDeps,
  input: FanoutInput,
): Promise<{ outcomes: GroupOutcome[]; notes: string[] }> {
  const grouped = groupTasksBySkillHint(input.tasks, input.managedName);
  if (grouped.size === 0 || (grouped.size === 1 && grouped.has(input.managedName))) return { outcomes: [], notes: [] };
  const outcomes: GroupOutcome[] = [];
  const notes: string[] = [];
  for (const [name, tasks] of grouped) {
    let skill = input.managedSkill;
    let livePath = "";
    let liveSha256 = "";
    if (name !== input.managedName) {
      const r = resolveSkill(name, input.roots);
      let reason = r.ok ? "" : r.reason;
      if (r.ok) {
        try {
          const bytes = readFileSync(r.path);
          skill = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
          livePath = r.path;
          liveSha256 = sha256Hex(bytes);
        } catch (err) {
          reason = `could not read its SKILL.md (${(err as Error).name})`;
        }
      }
      if (reason) {
        outcomes.push(skipped(name, oneLine(reason), tasks.length));
        notes.push(oneLine(`skipped skill ${name || "<unnamed>"}: ${reason}`));
        continue;
      }
    }
    const history = input.history.filter((t) => (t.skillHint.trim() || input.managedName) === name);
    try {
      const result = await dreamConsolidate(deps, tasks, skill, input.memory, {
        ...input.options,
        history,
        evolveMemory: false,
      });
      outcomes.push({
        skillName: name,
        status: "consolidated",
        result,
        reason: "",
        nTasks: tasks.length,
        livePath,
        liveSha256,
      });
    } catch (err) {
      if (err instanceof PendingCalls || err instanceof SleepBackendError) throw err;
      outcomes.push({
        ...skipped(name, oneLine(`${(err as Error).name}: ${(err as Error).message}`).slice(0, 300), tasks.length),
        status: "failed",
      });
    }
  }
  return { outcomes, notes };
}

export function groupReports(outcomes: readonly GroupOutcome[]): SkillGroupReport[] {
  return outcomes.map((o) => ({
    skillName: oneLine(o.skillName),
    status: o.status,
    accepted: o.result?.accepted ?? false,
    gateAction: o.result?.gateAction ?? "",
    baselineScore: o.result?.baselineScore ?? 0,
    candidateScore: o.result?.candidateScore ?? 0,
    nTasks: o.nTasks,
    nAppliedEdits: o.result?.appliedEdits.length ?? 0,
    nRejectedEdits: o.result?.rejectedEdits.length ?? 0,
    reason: o.reason,
  }));
}

/**
 * Staged rows for accepted, non-empty, resolved groups. Never the managed catch-all (it stays on the
 * managed proposal), never the live file of the managed proposal, never two files whose names differ
 * only in case.
 */
export function skillProposals(
  outcomes: readonly GroupOutcome[],
  managedName: string,
  reservedLive: readonly string[],
): { proposals: SkillProposal[]; notes: string[] } {
  const proposals: SkillProposal[] = [];
  const notes: string[] = [];
  const reserved = new Set(reservedLive.map((p) => p.normalize("NFC").toLowerCase()));
  const names = new Set<string>();
  for (const o of outcomes) {
    if (o.skillName === managedName || !o.result?.accepted) continue;
    const note = (why: string) => notes.push(oneLine(`skipped skill ${o.skillName}: ${why}`));
    if (!o.result.newSkill.trim()) note("empty proposed skill");
    else if (!o.livePath) note("no resolved live baseline");
    else if (reserved.has(o.livePath.normalize("NFC").toLowerCase()))
      note("same live target as the managed skill proposal");
    else if (names.has(o.skillName.toLowerCase()))
      note("its proposal file name collides with another skill's (names differ only in case)");
    else {
      names.add(o.skillName.toLowerCase());
      proposals.push({
        skillName: o.skillName,
        proposedSkill: o.result.newSkill,
        livePath: o.livePath,
        liveSha256: o.liveSha256,
      });
    }
  }
  return { proposals, notes };
}

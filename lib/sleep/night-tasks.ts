/**
 * Harvest + mine for one night (spec D.1 steps 4–5), shared by the cycle, `sleep harvest` and the handoff
 * driver. Harvest is injected (the real module reads the agents' transcripts; tests pass digests); the LLM
 * miner is used when the backend is a real model and `llm_mine` is on, with the heuristic miner as fallback.
 */
import type { SleepBackend } from "./backend/types";
import { PendingCalls, SleepBackendError } from "./backend/types";
import type { SleepConfig } from "./config";
import { sessionLimitOf } from "./config";
import type { Evidence } from "./evidence";
import type { HarvestOptions } from "./harvest";
import { makeLlmMiner } from "./llm-miner";
import { mine } from "./mine";
import type { PromptRegistry } from "./prompts";
import { PROMPT_NAMES } from "./prompts";
import type { SessionDigest } from "./session-digest";
import type { TaskRecord } from "./types";

/** The harvest call the cycle needs: digests and notes (the real module also returns skip counters, unused here). */
export type HarvestFn = (opts: HarvestOptions) => Promise<{ digests: SessionDigest[]; notes: string[] }>;

export interface NightTasksDeps {
  config: SleepConfig;
  harvest: HarvestFn;
  backend: SleepBackend;
  prompts: PromptRegistry;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
  platform: string;
  evidence: Evidence;
}

const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** What harvest is asked for: the configured source and roots, the scope, the per-project checkpoints, the cap. */
/** `checkpoints`: the last harvest per project (sessions before it, or before now − lookback_hours, are old); null: no lower bound. */
export function harvestOptionsOf(
  d: Pick<NightTasksDeps, "config" | "env" | "now" | "platform" | "prompts">,
  checkpoints: Record<string, string> | null,
): HarvestOptions {
  const c = d.config;
  const scope: HarvestOptions["scope"] =
    c.projects === "invoked"
      ? { kind: "invoked", project: c.invoked_project }
      : c.projects === "all"
        ? { kind: "all" }
        : { kind: "list", projects: c.projects };
  return {
    source: c.transcript_source,
    home: c.home,
    platform: d.platform,
    env: { ...d.env },
    claudeHome: c.claude_home,
    codexHome: c.codex_home,
    piHome: c.pi_home,
    cursorHome: c.cursor_home,
    vscodeWorkspaceStorage: c.vscode_workspace_storage,
    copilotCliSessionStore: c.copilot_cli_session_store,
    opencodeDb: c.opencode_db,
    scope,
    since: checkpoints
      ? { kind: "checkpoints", checkpoints: { ...checkpoints }, lookbackHours: c.lookback_hours }
      : { kind: "none" },
    limit: sessionLimitOf(c),
    negativeFeedback: list(d.env.SKILLOPT_SLEEP_NEG_FEEDBACK),
    positiveFeedback: list(d.env.SKILLOPT_SLEEP_POS_FEEDBACK),
    agentMarkers: list(d.env.SKILLOPT_SLEEP_AGENT_MARKERS),
    // Our own prompts' openings: a one-prompt session starting with one is a replay call, not the user's work.
    replayMarkers: PROMPT_NAMES.map((n) => d.prompts.template(n).trim().split("\n")[0]!.slice(0, 80)),
    clock: { now: d.now },
  };
}

export interface MinedNight {
  digests: SessionDigest[];
  tasks: TaskRecord[];
  notes: string[];
}

/** The live skill text the target filter works from, and whether the filter is on. */
export interface TargetFilter {
  skillText: string;
  skillPath: string;
}

export async function harvestAndMine(
  d: NightTasksDeps,
  checkpoints: Record<string, string> | null,
  target: TargetFilter | null,
  digestsGiven?: SessionDigest[],
): Promise<MinedNight> {
  const c = d.config;
  const notes: string[] = [];
  let digests = digestsGiven;
  if (!digests) {
    const h = await d.harvest(harvestOptionsOf(d, checkpoints));
    digests = h.digests;
    notes.push(...h.notes);
  }
  for (const s of digests) {
    d.evidence.log("harvest", "session", {
      sessionId: s.sessionId,
      project: s.project,
      source: s.source,
      nUserPrompts: s.userPrompts.length,
      userPromptsHead: s.userPrompts.slice(0, 6).map((p) => p.slice(0, 200)),
      assistantFinalHead: (s.assistantFinals.at(-1) ?? "").slice(0, 300),
      feedbackSignals: s.feedbackSignals,
    });
  }
  const candidateLimit = target ? c.max_tasks_per_night * 3 : c.max_tasks_per_night;
  const useLlm = d.backend.name !== "mock" && c.llm_mine;
  const llm = useLlm
    ? makeLlmMiner(d.backend, d.prompts, { maxSessions: sessionLimitOf(c), maxTasks: candidateLimit })
    : undefined;
  const llmMiner = llm
    ? async (ds: readonly SessionDigest[]) => {
        try {
          return await llm(ds);
        } catch (err) {
          if (err instanceof PendingCalls || err instanceof SleepBackendError) throw err;
          notes.push(`the LLM miner failed (${(err as Error).message}); the heuristic miner was used`);
          d.evidence.log("mine", "llm_miner_failed", { error: (err as Error).message });
          return [];
        }
      }
    : undefined;
  const tasks = await mine(digests, {
    maxTasks: c.max_tasks_per_night,
    candidateLimit,
    valFraction: c.val_fraction,
    testFraction: c.test_fraction,
    seed: c.seed,
    llmMiner,
    targetSkillText: target?.skillText,
    targetSkillPath: target?.skillPath,
  });
  return { digests, tasks, notes };
}

/**
 * What a night opens before it runs: the prompt registry (user overrides), the handoff folder, and the
 * evidence log with its staging folder (reserved at once; a dry run logs to the state folder instead),
 * plus the configuration keys the `cycle/start` event records.
 */
import { join } from "node:path";
import { stateDirOf, type SleepConfig } from "./config";
import type { CycleContext as Ctx } from "./cycle-types";
import { EvidenceLog, NoEvidence } from "./evidence";
import { PromptRegistry } from "./prompts";
import { nightStamp, reserveStagingDir } from "./staging/root";

export function promptRegistryFor(cfg: SleepConfig, env: Readonly<Record<string, string | undefined>>): PromptRegistry {
  return new PromptRegistry(env.SKILLOPT_SLEEP_PROMPTS_PATH?.trim() || join(stateDirOf(cfg), "prompts.json"));
}

export function handoffDirFor(cfg: SleepConfig, env: Readonly<Record<string, string | undefined>>): string {
  return env.SKILLOPT_SLEEP_HANDOFF_DIR?.trim() || join(cfg.invoked_project, ".skillopt-sleep-handoff");
}

export function openEvidence(
  ctx: Omit<Ctx, "evidence" | "evidencePath" | "stagingDir">,
  dryRun: boolean,
): Pick<Ctx, "evidence" | "evidencePath" | "stagingDir"> {
  const { cfg, deps } = ctx;
  if (!cfg.evidence_log)
    return {
      evidence: new NoEvidence(),
      evidencePath: "",
      stagingDir: dryRun ? "" : reserveStagingDir(cfg.invoked_project, deps.now()),
    };
  const stagingDir = dryRun ? "" : reserveStagingDir(cfg.invoked_project, deps.now());
  const evidencePath = dryRun
    ? join(stateDirOf(cfg), "evidence", `dryrun-${nightStamp(deps.now())}.jsonl`)
    : join(stagingDir, "evidence.jsonl");
  return {
    evidence: new EvidenceLog(evidencePath, {
      maxChars: cfg.evidence_max_chars,
      redact: cfg.redact_secrets,
      now: deps.now,
    }),
    evidencePath,
    stagingDir,
  };
}

export const CONFIG_LOGGED = [
  "backend",
  "model",
  "optimizer_backend",
  "optimizer_model",
  "target_backend",
  "target_model",
  "gate_mode",
  "gate_metric",
  "gate_mixed_weight",
  "gate_no_regression",
  "edit_budget",
  "val_fraction",
  "test_fraction",
  "dream_rollouts",
  "dream_factor",
  "recall_k",
  "max_tasks_per_night",
  "lookback_hours",
  "llm_mine",
  "evolve_skill",
  "evolve_memory",
] as const;

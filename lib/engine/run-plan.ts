/**
 * A run's plan from its config and splits: derived sizes and normalised modes, checked for consistency.
 * Pure and free of the training loop, so the dashboard can validate a run (and count its steps) without
 * loading the engine's runtime; the trainer plans with the same function.
 */
import { LIMITS, type RunConfig } from "../contracts/run-config";
import type { GateMetric, LrControlMode, PairPolicy, Splits, UpdateMode } from "./types";

/** A run-level failure with a message fit for users (bad data, every rollout failing …). */
export class EngineError extends Error {
  /** The config key the problem is about, when there is one. */
  readonly field?: string;
  constructor(message: string, field?: string) {
    super(message);
    this.name = "EngineError";
    this.field = field;
  }
}

export interface RunPlan {
  trainSize: number;
  stepsPerEpoch: number;
  batchesPerEpoch: number;
  totalSteps: number;
  updateMode: UpdateMode;
  lrControl: LrControlMode;
  pairPolicy: PairPolicy;
  gateMetric: GateMetric;
}

/** Derived sizes and normalised modes (spec §2.6, §3.5, §5); throws EngineError on inconsistent input. */
export function planRun(cfg: RunConfig, splits: Splits): RunPlan {
  const configured = cfg.train.train_size;
  const inferred = splits.train.length;
  if (configured > 0 && inferred > 0 && configured !== inferred) {
    throw new EngineError(
      `train.train_size is ${configured} but the train split has ${inferred} items`,
      "train.train_size",
    );
  }
  const trainSize = configured > 0 ? configured : inferred;
  if (trainSize <= 0)
    throw new EngineError("the train split is empty; set train.train_size or provide train items", "env.split_dir");
  if (splits.val.length === 0) throw new EngineError("the selection (val) split is empty", "env.split_dir");
  const stepsPerEpoch = Math.ceil(trainSize / (cfg.train.batch_size * cfg.train.accumulation));
  const totalSteps = cfg.train.num_epochs * stepsPerEpoch;
  if (totalSteps > LIMITS.totalSteps) {
    throw new EngineError(
      `train.num_epochs: ${cfg.train.num_epochs} epochs × ${stepsPerEpoch} steps per epoch is ${totalSteps} steps; at most ${LIMITS.totalSteps} (raise train.batch_size or lower the epochs)`,
      "train.num_epochs",
    );
  }
  const updateMode = cfg.optimizer.skill_update_mode;
  return {
    trainSize,
    stepsPerEpoch,
    batchesPerEpoch: stepsPerEpoch * cfg.train.accumulation,
    totalSteps,
    updateMode,
    lrControl: updateMode === "full_rewrite_minibatch" ? "none" : cfg.optimizer.lr_control_mode,
    pairPolicy: cfg.optimizer.longitudinal_pair_policy,
    gateMetric: cfg.evaluation.gate_metric,
  };
}

/** The Training, Reflection and Optimizer sections of the New run form (ranges mirror lib/contracts/run-config.ts). */
import { LR_CONTROL_MODES, PAIR_POLICIES, REFLECT_MODES, SCHEDULERS, UPDATE_MODES } from "@/lib/contracts/run-config";
import { bool, int, num, oneOf, type ConfigSectionSpec } from "./config-field-kinds";

export const TRAINING_SECTIONS: ConfigSectionSpec[] = [
  {
    id: "train",
    title: "Training",
    blurb: "Epochs and batches: how much training data each step sees.",
    fields: [
      {
        key: "train.num_epochs",
        label: "Epochs",
        help: "Passes over the train split; each ends with a slow update and a meta-skill update.",
        kind: int(1),
      },
      {
        key: "train.batch_size",
        label: "Batch size",
        help: "Train items rolled out per step (the forward pass).",
        kind: int(1),
      },
      {
        key: "train.accumulation",
        label: "Accumulation",
        help: "Batches whose patches are pooled before one update (gradient accumulation).",
        kind: int(1),
      },
      {
        key: "train.train_size",
        label: "Train size",
        help: "0 = the whole train split; otherwise it must equal the split's size.",
        kind: int(0),
      },
      {
        key: "train.steps_per_epoch",
        label: "Steps per epoch",
        help: "Derived from train size ÷ (batch × accumulation); leave empty.",
        kind: int(0),
        nullable: true,
      },
      {
        key: "train.seed",
        label: "Seed",
        help: "Seeds shuffling and sampling; same seed + same answers = same run.",
        kind: int(),
      },
    ],
  },
  {
    id: "gradient",
    title: "Reflection (gradient)",
    blurb: "How the optimizer reads trajectories and proposes patches.",
    fields: [
      { key: "gradient.minibatch_size", label: "Minibatch size", help: "Trajectories per analyst call.", kind: int(1) },
      {
        key: "gradient.merge_batch_size",
        label: "Merge batch size",
        help: "Patches per merge (aggregate) call; at least 2.",
        kind: int(2),
      },
      {
        key: "gradient.analyst_workers",
        label: "Analyst workers",
        help: "Concurrent analyst and merge calls.",
        kind: int(1),
      },
      {
        key: "gradient.failure_only",
        label: "Failures only",
        help: "Never analyse successful trajectories (no success patches).",
        kind: bool,
      },
      {
        key: "gradient.reflect_mode",
        label: "Reflect mode",
        help: "deep reads whole trajectories; shallow reads task, prediction, reference and reason.",
        kind: oneOf(REFLECT_MODES),
      },
    ],
  },
  {
    id: "optimizer",
    title: "Optimizer",
    blurb: "The learning rate is an edit budget: at most that many edits per step.",
    fields: [
      {
        key: "optimizer.learning_rate",
        label: "Learning rate",
        help: "Edit budget: most edits applied per step (also each analyst call's budget).",
        kind: int(0),
      },
      {
        key: "optimizer.min_learning_rate",
        label: "Min learning rate",
        help: "Floor of the schedule (linear / cosine decay towards it).",
        kind: int(0),
      },
      {
        key: "optimizer.lr_scheduler",
        label: "LR scheduler",
        help: "How the budget changes over steps.",
        kind: oneOf(SCHEDULERS),
      },
      {
        key: "optimizer.lr_control_mode",
        label: "LR control",
        help: "fixed follows the schedule; autonomous lets the optimizer choose; none only differs in full-rewrite mode.",
        kind: oneOf(LR_CONTROL_MODES),
      },
      {
        key: "optimizer.meta_learning_rate",
        label: "Meta learning rate",
        help: "Kept for config compatibility; the original maps it but never reads it.",
        kind: num(0, undefined, 0.1),
        nullable: true,
      },
      {
        key: "optimizer.skill_update_mode",
        label: "Update mode",
        help: "patch applies edits; the rewrite modes regenerate the skill from suggestions.",
        kind: oneOf(UPDATE_MODES),
      },
      {
        key: "optimizer.use_slow_update",
        label: "Slow update",
        help: "At each epoch end, write longitudinal guidance into the skill's protected block.",
        kind: bool,
      },
      {
        key: "optimizer.slow_update_samples",
        label: "Slow-update samples",
        help: "Train items sampled for the old-vs-new answer comparison.",
        kind: int(1),
      },
      {
        key: "optimizer.slow_update_gate_with_selection",
        label: "Gate slow update",
        help: "Score the slow-update candidate on the selection split and gate it like a step.",
        kind: bool,
      },
      {
        key: "optimizer.longitudinal_pair_policy",
        label: "Pair policy",
        help: "Which pairs the slow update reads: mixed, changed answers, or unchanged ones.",
        kind: oneOf(PAIR_POLICIES),
      },
      {
        key: "optimizer.use_meta_skill",
        label: "Meta skill",
        help: "Optimizer-side memory of what worked, carried across epochs.",
        kind: bool,
      },
      {
        key: "optimizer.use_skill_aware_reflection",
        label: "Skill-aware reflection",
        help: "Route failures as skill defect vs execution lapse, with a protected appendix of notes.",
        kind: bool,
      },
      {
        key: "optimizer.skill_aware_appendix_source",
        label: "Appendix source",
        help: "Which analyses feed the skill-aware appendix.",
        kind: oneOf(["both", "failure_only"]),
      },
      {
        key: "optimizer.skill_aware_consolidate_threshold",
        label: "Consolidate threshold",
        help: "Compact the appendix with the model once it has more than N notes; 0 = never.",
        kind: int(0),
      },
    ],
  },
];

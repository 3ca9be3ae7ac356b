/**
 * The deterministic experiment (spec D.14): a persona's tasks, split 0.34 val with seed 42, start from an
 * empty managed skill and empty memory; each night consolidates (skill then memory, mixed gate 0.5) and
 * adopts what the gate accepted, stopping early at a perfect held-out score. With the mock backend it then
 * runs the gate-safety probe: the harmful task plus three persona tasks, consolidated skill-only; the probe
 * passes when the harmful rule is not in the resulting skill. It calls consolidate directly — no harvest,
 * staging or adoption of live files.
 */
import { gateScore } from "../../engine/gate";
import { MOCK_RULES } from "../backend/mock";
import type { SleepBackend } from "../backend/types";
import { consolidate } from "../consolidate";
import { ensureSkillScaffold } from "../learned";
import { assignSplits } from "../mine";
import type { PromptRegistry } from "../prompts";
import { aggregateScores, replayBatch } from "../replay";
import type { TaskRecord } from "../types";
import { harmfulTask, PERSONAS, type PersonaName } from "./personas";

export interface ExperimentOptions {
  persona: PersonaName;
  nights: number;
  editBudget: number;
  /** Keep only the first N persona tasks (0: all) — bounds a real backend's cost. */
  limitTasks: number;
  seed?: number;
}

export interface ExperimentTraceRow {
  night: number;
  holdoutScore: number;
  action: string;
  accepted?: boolean;
  nEdits: number;
  edits?: string[];
  nRejected?: number;
}

export interface ExperimentResult {
  persona: PersonaName;
  backend: string;
  model: string;
  nTasks: number;
  nightsRun: number;
  baselineHoldout: number;
  afterHoldout: number;
  lift: number;
  improved: boolean;
  /** null for real backends (the probe relies on the mock's known bad rule). */
  gateBlocksHarmful: boolean | null;
  tokensUsed: number;
  finalSkillExcerpt: string;
  trace: ExperimentTraceRow[];
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const mixed = (h: number, s: number) => gateScore({ hard: h, soft: s, metric: "mixed", mixedWeight: 0.5 });

async function holdoutScore(
  deps: { backend: SleepBackend; now: () => number },
  tasks: readonly TaskRecord[],
  skill: string,
  memory: string,
): Promise<number> {
  const val = tasks.filter((t) => t.split === "val");
  const { hard, soft } = aggregateScores(await replayBatch(deps, val.length > 0 ? val : tasks, skill, memory));
  return mixed(hard, soft);
}

export async function runExperiment(
  backend: SleepBackend,
  prompts: PromptRegistry,
  o: ExperimentOptions,
): Promise<ExperimentResult> {
  const seed = o.seed ?? 42;
  const deps = { backend, prompts, now: () => 0 };
  let items = PERSONAS[o.persona]();
  if (o.limitTasks > 0) items = items.slice(0, o.limitTasks);
  const tasks = assignSplits(items, { valFraction: 0.34, testFraction: 0, seed });
  let skill = ensureSkillScaffold("", "skillopt-sleep-learned", "Learned preferences.");
  let memory = "";
  const baseline = await holdoutScore(deps, tasks, skill, memory);
  const trace: ExperimentTraceRow[] = [{ night: 0, holdoutScore: round4(baseline), action: "baseline", nEdits: 0 }];
  const gate = {
    editBudget: o.editBudget,
    gateMetric: "mixed" as const,
    gateMixedWeight: 0.5,
    gateNoRegression: false,
    gateOff: false,
    rolloutsK: 1,
  };
  for (let night = 1; night <= o.nights; night++) {
    const r = await consolidate(deps, tasks, skill, memory, { ...gate, evolveSkill: true, evolveMemory: true, night });
    if (r.accepted) ({ newSkill: skill, newMemory: memory } = r);
    trace.push({
      night,
      holdoutScore: round4(r.candidateScore),
      action: r.gateAction,
      accepted: r.accepted,
      nEdits: r.appliedEdits.length,
      edits: r.appliedEdits.map((e) => e.content),
      nRejected: r.rejectedEdits.length,
    });
    if (r.candidateScore >= 0.999) break;
  }
  const after = await holdoutScore(deps, tasks, skill, memory);
  let gateBlocksHarmful: boolean | null = null;
  if (backend.name === "mock") {
    const probe = assignSplits([harmfulTask(), ...PERSONAS[o.persona]().slice(0, 3)], {
      valFraction: 0.5,
      testFraction: 0,
      seed,
    });
    const r = await consolidate(deps, probe, skill, memory, {
      ...gate,
      evolveSkill: true,
      evolveMemory: false,
      night: trace.length,
    });
    gateBlocksHarmful = !r.newSkill.includes(MOCK_RULES.__harmful__!);
  }
  return {
    persona: o.persona,
    backend: backend.name,
    model: backend.model,
    nTasks: tasks.length,
    nightsRun: trace.length - 1,
    baselineHoldout: round4(baseline),
    afterHoldout: round4(after),
    lift: round4(after - baseline),
    improved: after > baseline,
    gateBlocksHarmful,
    tokensUsed: backend.tokensUsed(),
    finalSkillExcerpt: skill.slice(-500),
    trace,
  };
}

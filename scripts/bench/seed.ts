/**
 * Synthetic rows for the UI benchmark, written straight to the database: many small runs for the list,
 * and one large run (many steps, tens of thousands of evaluation results) for the run page.
 */
import { randomUUID } from "node:crypto";
import { RunConfigSchema } from "../../lib/contracts/run-config";
import type { Db } from "../../lib/db/client";

const config = RunConfigSchema.parse({ model: { backend: "sim" }, env: { name: "searchqa" } });
const skill = "# Question Answering Skill\n\n## Answer format\n- Answer with the shortest exact span.\n";

function runRow(name: string, status: string) {
  return {
    id: randomUUID(),
    name,
    status,
    env: "searchqa",
    configJson: JSON.stringify(config),
    sourceYaml: "env:\n  name: searchqa\n",
    optimizerBackend: "sim",
    optimizerModel: "sim-optimizer",
    targetBackend: "sim",
    targetModel: "sim-target",
    simulated: true,
    seedSkill: skill,
    baselineScore: 0.2,
    bestScore: 0.8,
    stepsDone: 40,
    stepsTotal: 40,
    numEpochs: 4,
    calls: 5000,
    promptTokens: 2_000_000,
    completionTokens: 100_000,
    startedAt: new Date(),
    finishedAt: new Date(),
  };
}

export async function seedRuns(db: Db, n: number): Promise<void> {
  for (let i = 0; i < n; i += 200) {
    await db.run.createMany({
      data: Array.from({ length: Math.min(200, n - i) }, (_, k) =>
        runRow(`bench run ${i + k}`, (i + k) % 7 === 0 ? "failed" : "succeeded"),
      ),
    });
  }
}

/** One finished run with `steps` steps and `evals` evaluation results spread over them. */
export async function seedBigRun(db: Db, steps: number, evals: number): Promise<string> {
  const run = runRow("bench: 1,000-step run", "succeeded");
  await db.run.create({ data: { ...run, stepsDone: steps, stepsTotal: steps, numEpochs: 10 } });
  const actions = ["accept_new_best", "reject", "reject", "accept", "skip_no_patches"];
  for (let s = 1; s <= steps; s += 250) {
    await db.step.createMany({
      data: Array.from({ length: Math.min(250, steps - s + 1) }, (_, k) => {
        const step = s + k;
        const score = Math.min(0.95, 0.2 + step / (steps * 1.3));
        return {
          runId: run.id,
          step,
          epoch: Math.ceil(step / 100),
          stepInEpoch: (step - 1) % 100,
          action: actions[step % actions.length]!,
          budget: 4,
          nFailurePatches: 3,
          nSuccessPatches: 2,
          nMerged: 4,
          nRanked: 3,
          nApplied: 3,
          nSkipped: 0,
          trainHard: score - 0.05,
          trainSoft: score,
          selectionHard: score,
          selectionSoft: score,
          candidateScore: score,
          currentScore: score,
          bestScore: score,
          recordJson: JSON.stringify({ step, action: actions[step % actions.length] }),
        };
      }),
    });
  }
  const perStep = Math.ceil(evals / steps);
  for (let s = 1; s <= steps; s += 25) {
    const data = [];
    for (let step = s; step < s + 25 && step <= steps; step++) {
      for (let i = 0; i < perStep; i++) {
        data.push({
          id: randomUUID(),
          runId: run.id,
          step,
          label: "selection",
          split: "selection",
          skillHash: `h${step}`,
          itemId: `item-${i}`,
          hard: (i + step) % 3 === 0 ? 0 : 1,
          soft: 0.5,
          status: "ok",
          prediction: "answer",
          reference: "answer",
        });
      }
    }
    await db.evalResult.createMany({ data });
  }
  await db.skillVersion.create({
    data: { id: randomUUID(), runId: run.id, kind: "seed", step: 0, epoch: 0, content: skill, contentHash: "seed" },
  });
  await db.checkpoint.create({ data: { runId: run.id, key: "best_skill.md", kind: "text", value: skill } });
  return run.id;
}

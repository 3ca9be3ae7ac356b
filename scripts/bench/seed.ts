/**
 * Synthetic rows for the UI benchmark, written straight to the database: many small runs for the list,
 * and one large run (many steps, tens of thousands of evaluation results) for the run page.
 */
import { randomUUID } from "node:crypto";
import { RunConfigSchema } from "../../lib/contracts/run-config";
import { holdMessage } from "../../lib/contracts/run-recovery";
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
          recordJson: JSON.stringify({
            step,
            epoch: Math.ceil(step / 100),
            step_in_epoch: (step - 1) % 100,
            action: actions[step % actions.length],
          }),
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

/**
 * `n` runs for the runs table, spread the way a long-lived dashboard's are: over a year of creation
 * times, every status, three benchmarks, scores, test gains, tokens and costs that differ, a tag on
 * every tenth run and a note on every twentieth, so sorting and searching have real work to do.
 * Interrupted runs are at rest, as they are on such a dashboard: past `maxAutoRestarts` and waiting for
 * Resume. With restarts left, the worker would restart all of them as soon as it starts (1,500 runs at
 * 10,000), and the bench would measure the pages while it churns through them.
 */
export async function seedTableRuns(db: Db, n: number, maxAutoRestarts: number): Promise<void> {
  const statuses = ["succeeded", "succeeded", "succeeded", "failed", "cancelled", "interrupted"];
  const envs = ["searchqa", "livemath", "docvqa"];
  const t0 = Date.UTC(2025, 0, 1);
  for (let i = 0; i < n; i += 500) {
    const rows = Array.from({ length: Math.min(500, n - i) }, (_, k) => {
      const j = i + k;
      const start = new Date(t0 + j * 3_137_000);
      const testInitial = (j % 17) / 20;
      const status = statuses[j % statuses.length]!;
      return {
        ...runRow(`table run ${j}`, status),
        ...(status === "interrupted"
          ? { autoRestarts: maxAutoRestarts, errorMessage: holdMessage(maxAutoRestarts) }
          : {}),
        env: envs[j % envs.length]!,
        note: j % 20 === 0 ? `note ${j}: tried a shorter analyst prompt` : null,
        baselineScore: testInitial,
        bestScore: Math.min(1, testInitial + (j % 7) / 30),
        testInitial,
        testBest: j % 9 === 0 ? null : Math.min(1, testInitial + ((j % 11) - 3) / 40),
        promptTokens: 10_000 + ((j * 7919) % 900_000),
        completionTokens: (j * 104_729) % 90_000,
        costUsd: j % 5 === 0 ? null : ((j * 31) % 1000) / 100,
        createdAt: start,
        startedAt: start,
        finishedAt: new Date(start.getTime() + 60_000 + ((j * 613) % 3_600_000)),
      };
    });
    await db.run.createMany({ data: rows });
    await db.runTag.createMany({
      data: rows.filter((_, k) => (i + k) % 10 === 0).map((r, k) => ({ runId: r.id, tag: `sweep-${k % 4}` })),
    });
  }
}

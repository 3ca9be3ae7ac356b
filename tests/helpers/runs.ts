/** Run rows written straight to the database, with the columns the runs table shows set per test. */
import { randomUUID } from "node:crypto";
import { RunConfigSchema } from "../../lib/contracts/run-config";
import type { Db } from "../../lib/db/client";
import { findRun } from "../../lib/db/runs";

const config = RunConfigSchema.parse({ model: { backend: "sim" }, env: { name: "searchqa" } });

export type SeedRun = Partial<Parameters<Db["run"]["create"]>[0]["data"]> & { tags?: string[] };

/** Creates one run (defaults: a finished searchqa run on the simulated model) and its tags; returns its id. */
export async function seedRun(db: Db, over: SeedRun = {}): Promise<string> {
  const { tags = [], ...cols } = over;
  const id = (cols.id as string | undefined) ?? randomUUID();
  await db.run.create({
    data: {
      name: "seeded run",
      status: "succeeded",
      env: "searchqa",
      configJson: JSON.stringify(config),
      sourceYaml: "env:\n  name: searchqa\n",
      optimizerBackend: "sim",
      optimizerModel: "sim-optimizer",
      targetBackend: "sim",
      targetModel: "sim-target",
      simulated: true,
      seedSkill: "# Skill\n",
      ...cols,
      id,
    },
  });
  if (tags.length > 0) await db.runTag.createMany({ data: tags.map((tag) => ({ runId: id, tag })) });
  return id;
}

/** A finished run's row once its usage is written (the worker adds the last calls just after the status). */
export async function settledRun(id: string) {
  let before = await findRun(id);
  for (;;) {
    await new Promise((r) => setTimeout(r, 750));
    const now = await findRun(id);
    if (now!.calls === before!.calls) return now!;
    before = now;
  }
}

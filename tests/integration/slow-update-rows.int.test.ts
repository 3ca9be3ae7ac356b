/**
 * A gated slow update stores its candidate's per-item selection results like a step's candidate
 * evaluation: rows under the label `slow_update`, a column in the item history after the step it followed.
 * The SearchQA sample on the simulated backend, 2 epochs, on both databases.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../../lib/config";
import { resetEnvCache } from "../../lib/config/env";
import type { EngineEvent, EngineEventOf } from "../../lib/contracts/events";
import type { Db } from "../../lib/db/client";
import { DbCheckpointStore } from "../../lib/db/checkpoint-store";
import { persistEngineEvent } from "../../lib/db/engine-events";
import { getItemHistory } from "../../lib/db/item-history";
import { createRun } from "../../lib/db/runs";
import { runTraining, skillHash } from "../../lib/engine";
import { prepareRun } from "../../lib/runs/prepare";
import { PROVIDERS, freshDb } from "../helpers/db";

const PRESET = "configs/searchqa/sample.yaml";
const OVERRIDES = [
  "train.num_epochs=2",
  "optimizer.use_slow_update=true",
  "optimizer.slow_update_gate_with_selection=true",
  // A seed whose epoch-2 slow update writes guidance, so its gate runs (on others the sim returns none).
  "train.seed=12",
];

describe.each(PROVIDERS)("slow-update gate rows on %s", (provider) => {
  let db: Db;
  const savedUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    const fresh = await freshDb(provider);
    db = fresh.db;
    // The item history picks its SQL dialect from DATABASE_URL for a PostgreSQL client, as the dashboard does.
    process.env.DATABASE_URL = fresh.url;
    resetEnvCache();
  });
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    resetEnvCache();
    await db.$disconnect();
  });

  it("stores the slow-update gate's per-item results and shows them in the item history", async () => {
    const { config, resolvedYaml } = loadRunConfig(PRESET, OVERRIDES);
    const run = prepareRun({ config, rootDir: process.cwd(), trust: "local" });
    const id = randomUUID();
    await createRun(
      {
        id,
        name: "slow update rows",
        config,
        sourceYaml: resolvedYaml,
        seedSkill: run.initialSkill,
        optimizerBackend: "sim",
        targetBackend: "sim",
        simulated: true,
        stepsTotal: 6,
      },
      { db },
    );
    const events: EngineEvent[] = [];
    await runTraining({
      config,
      splits: run.splits,
      initialSkill: run.initialSkill,
      env: run.env,
      optimizer: run.optimizer,
      target: run.target,
      store: new DbCheckpointStore(id, db),
      events: {
        emit: async (e) => {
          events.push(e);
          await persistEngineEvent(id, e, skillHash, db);
        },
      },
      clock: { now: () => Date.now() },
    });
    const slow = events
      .filter((e): e is EngineEventOf<"slowUpdateApplied"> => e.type === "slowUpdateApplied")
      .find((e) => e.epoch === 2 && e.gateScored);
    expect(slow, "the epoch-2 slow update ran its gate").toBeDefined();

    const rows = await db.evalResult.findMany({ where: { runId: id, label: "slow_update" } });
    expect(rows.map((r) => r.itemId).sort()).toEqual(slow!.gateScored!.results.map((r) => r.id).sort());
    expect(new Set(rows.map((r) => r.skillHash))).toEqual(new Set([slow!.gateScored!.candidateHash]));

    const history = await getItemHistory(id, "selection", { db });
    const col = history.evaluations.findIndex((e) => e.label === "slow_update");
    expect(col).toBeGreaterThan(0);
    const ev = history.evaluations[col]!;
    expect(ev).toMatchObject({ source: "measured", action: slow!.action });
    expect(history.evaluations[col - 1]!.step).toBeLessThanOrEqual(ev.step);
    // Every selection item has a measured result in the slow update's column.
    for (const item of history.items) expect(item.cells[col]).not.toBe(".");
  }, 240_000);
});

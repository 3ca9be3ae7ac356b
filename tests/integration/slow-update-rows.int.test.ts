/**
 * A gated slow update stores its candidate's per-item selection results like a step's candidate
 * evaluation: rows under the label `slow_update`, a column in the item history after the step it followed.
 * The SearchQA sample on the simulated backend, 2 epochs, on both databases.
 */
import { describe, expect, it } from "vitest";
import type { EngineEvent, EngineEventOf } from "../../lib/contracts/events";
import { getItemHistory } from "../../lib/db/item-history";
import { PROVIDERS } from "../helpers/db";
import { trainSimulatedRun } from "../helpers/sim-run";
import { useStack } from "../helpers/stack";

const PRESET = "configs/searchqa/sample.yaml";
const OVERRIDES = [
  "train.num_epochs=2",
  "optimizer.use_slow_update=true",
  "optimizer.slow_update_gate_with_selection=true",
  // A seed whose epoch-2 slow update writes guidance, so its gate runs (on others the sim returns none).
  "train.seed=12",
];

describe.each(PROVIDERS)("slow-update gate rows on %s", (provider) => {
  // The item history picks its SQL dialect from DATABASE_URL for a PostgreSQL client, as the dashboard does.
  const stack = useStack({ provider, databaseUrlEnv: true });

  it("stores the slow-update gate's per-item results and shows them in the item history", async () => {
    const db = stack.db;
    const events: EngineEvent[] = [];
    const { id } = await trainSimulatedRun(db, {
      preset: PRESET,
      overrides: OVERRIDES,
      name: "slow update rows",
      stepsTotal: 6,
      onEvent: (e) => {
        events.push(e);
      },
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

/**
 * The item history read from stored rows on both databases: result codes per evaluation, and each item's
 * reference and prediction from its latest stored evaluation only (a slow update's gate counts after its
 * step's candidate; train items are last seen at different steps, more than one query's worth of them).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Prisma } from "../../generated/prisma-sqlite/client";
import { evaluationCodesQuery, getItemHistory } from "../../lib/db/item-history";
import { PROVIDERS } from "../helpers/db";
import { seedRun } from "../helpers/runs";
import { useStack } from "../helpers/stack";

const result = (runId: string, label: string, step: number, itemId: string, hard: number, prediction: string) => ({
  id: randomUUID(),
  runId,
  step,
  label,
  split: label === "rollout" ? "train" : "selection",
  skillHash: `h-${label}-${step}`,
  itemId,
  hard,
  soft: hard,
  status: prediction.startsWith("timeout") ? "timeout" : "ok",
  prediction,
  reference: `ref ${itemId}`,
});

const step = (runId: string, n: number, action: string) => ({
  runId,
  step: n,
  epoch: 1,
  stepInEpoch: n - 1,
  action,
  candidateHash: `h-selection-${n}`,
  recordJson: "{}",
});

describe.each(PROVIDERS)("item history on %s", (provider) => {
  // DATABASE_URL names this database too, as in the dashboard; the SQL dialect comes from the client itself.
  const stack = useStack({ provider, databaseUrlEnv: true });

  it("reads codes per evaluation and the texts of each item's latest evaluation", async () => {
    const db = stack.db;
    const runId = await seedRun(db);
    await db.step.createMany({
      data: [step(runId, 1, "reject"), step(runId, 2, "accept"), step(runId, 3, "reject")],
    });
    await db.skillVersion.create({
      data: { id: randomUUID(), runId, step: 2, epoch: 1, kind: "slow_update", content: "x", contentHash: "su" },
    });
    await db.evalResult.createMany({
      data: [
        result(runId, "baseline", 0, "q1", 0, "b-q1"),
        result(runId, "baseline", 0, "q2", 1, "b-q2"),
        result(runId, "selection", 1, "q1", 1, "s1-q1"),
        result(runId, "selection", 1, "q2", 0, "s1-q2"),
        result(runId, "selection", 2, "q1", 1, "s2-q1"),
        result(runId, "selection", 2, "q2", 1, "s2-q2"),
        result(runId, "slow_update", 2, "q1", 0, "su2-q1"),
        result(runId, "selection", 3, "q2", 0, "timeout-s3-q2"),
      ],
    });
    const h = await getItemHistory(runId, "selection", { db });
    expect(h.evaluations.map((e) => `${e.label}:${e.step}`)).toEqual([
      "baseline:0",
      "selection:1",
      "selection:2",
      "slow_update:2",
      "selection:3",
    ]);
    expect(h.items).toEqual([
      {
        id: "q1",
        reference: "ref q1",
        lastPrediction: "su2-q1", // the slow update's gate ran after step 2's candidate
        cells: "0110.",
        current: "00111",
        changes: [{ step: 2, to: "fixed" }],
      },
      {
        id: "q2",
        reference: "ref q2",
        lastPrediction: "timeout-s3-q2",
        cells: "101.e",
        current: "11111",
        changes: [],
      },
    ]);
  });

  // SQLite, the default store, reads the codes from the index alone (40,000 results with their trajectory
  // texts: ≈120 → ≈40 ms); PostgreSQL's planner chooses by its statistics.
  it.runIf(provider === "sqlite")("reads each evaluation's codes from the covering index, not the rows", async () => {
    const q = evaluationCodesQuery(randomUUID(), ["selection", "baseline", "baseline"], true);
    const plan = await stack.db.$queryRaw<Array<{ detail: string }>>(Prisma.sql`EXPLAIN QUERY PLAN ${q}`);
    expect(plan.map((r) => r.detail).join("\n")).toMatch(
      /USING COVERING INDEX EvalResult_runId_label_step_status_hard_itemId_skillHash_idx/,
    );
  });

  it("finds the latest prediction of train items last seen at more steps than one query reads", async () => {
    const db = stack.db;
    const runId = await seedRun(db);
    const n = 520; // item i is last seen at step i + 1 (TEXT_STEPS is 500)
    await db.step.createMany({ data: Array.from({ length: n }, (_, i) => step(runId, i + 1, "reject")) });
    const rows = Array.from({ length: n }, (_, i) => result(runId, "rollout", i + 1, `t${i}`, 1, `late-t${i}`));
    rows.push(result(runId, "rollout", 1, "t5", 0, "early-t5"), result(runId, "rollout", 2, "t7", 0, "early-t7"));
    await db.evalResult.createMany({ data: rows });
    const h = await getItemHistory(runId, "train", { db });
    expect(h.items).toHaveLength(n);
    expect(h.evaluations).toHaveLength(n);
    for (const [i, item] of h.items.entries()) {
      expect(item.id).toBe(`t${i}`);
      expect(item.lastPrediction).toBe(`late-t${i}`);
      expect(item.reference).toBe(`ref t${i}`);
    }
    expect(h.items[5]!.cells.slice(0, 7)).toBe("0....1.");
    expect(h.items[5]!.changes).toEqual([{ step: 6, to: "fixed" }]);
  });
});

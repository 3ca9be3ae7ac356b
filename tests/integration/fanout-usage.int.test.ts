/**
 * The usage rows of a fanned-out run (`worker.fan_out`) count every call, whichever worker made it: with
 * real worker processes on a private Redis, the same sample run in one process and fanned out over two
 * workers ends with the same usage rows (calls, tokens, cost, errors, retries, cache hits per role and
 * stage; the simulated model is deterministic) and so the same Run.calls and costUsd, on SQLite and on
 * PostgreSQL. Before, the chunk workers' calls reached the shared budget but not these rows. Also: usage
 * written by two connections at once loses nothing (each write holds the run's lock).
 */
import { describe, expect, it } from "vitest";
import type { UsageCounters } from "../../lib/engine/ports";
import { emptyCounters } from "../../lib/backends/policy/stats";
import { addLlmUsage, syncRunTotals } from "../../lib/db/llm-usage";
import { createDb } from "../../lib/db/client";
import { findRun } from "../../lib/db/runs";
import { closeFanOutQueue } from "../../lib/queue/fanout";
import { createRunFromRequest } from "../../lib/runs/create";
import { PROVIDERS } from "../helpers/db";
import { until } from "../helpers/processes";
import { settledRun } from "../helpers/runs";
import { useStack } from "../helpers/stack";

const SAMPLE = "searchqa/sample.yaml";
const SMALL = { "train.num_epochs": 1 };

const counters = (o: Partial<UsageCounters>): UsageCounters => ({ ...emptyCounters(true), ...o });

describe.each(PROVIDERS)("usage rows of a fanned-out run on %s", (provider) => {
  const stack = useStack({ provider, redis: true, defaultDb: true });

  const newRun = async (overrides: Record<string, number | boolean>, name: string) =>
    (await createRunFromRequest({ preset: SAMPLE, overrides: { ...SMALL, ...overrides }, name }, process.cwd())).id;

  const succeeded = (id: string) =>
    until(
      () => findRun(id),
      (r) => r?.status === "succeeded" || r?.status === "failed",
      200_000,
      `run ${id} to end`,
    ).then((r) => expect(r?.status, r?.errorMessage ?? "").toBe("succeeded"));

  /** Every usage row but its wall time (which differs from run to run). */
  const usageRows = async (runId: string) =>
    (
      await stack.db.llmUsage.findMany({
        where: { runId },
        orderBy: [{ role: "asc" }, { stage: "asc" }],
        select: {
          role: true,
          stage: true,
          backend: true,
          model: true,
          calls: true,
          promptTokens: true,
          completionTokens: true,
          errorsJson: true,
          retries: true,
          cacheHits: true,
          costUsd: true,
          costSavedUsd: true,
        },
      })
    ).map((r) => ({
      ...r,
      costUsd: r.costUsd === null ? null : Number(r.costUsd.toFixed(9)),
      costSavedUsd: r.costSavedUsd === null ? null : Number(r.costSavedUsd.toFixed(9)),
    }));

  it("counts the chunk workers' calls: the same usage rows and run totals as the run in one process", async () => {
    const [a, b] = [
      stack.worker("use-a", { WORKER_CONCURRENCY: "1" }),
      stack.worker("use-b", { WORKER_CONCURRENCY: "1" }),
    ];
    await Promise.all([a.ready, b.ready]);
    try {
      const here = await newRun({}, "in one process");
      await succeeded(here);
      const one = await settledRun(here);
      const fanned = await newRun({ "worker.fan_out": true, "worker.exec_slots": 2 }, "fanned out");
      await succeeded(fanned);
      const many = await settledRun(fanned);

      const chunkWorkers = await stack.db.fanOutResult.findMany({ where: { runId: fanned }, distinct: ["workerId"] });
      expect(chunkWorkers.length, "both workers ran chunks").toBe(2);
      const rows = await usageRows(here);
      expect(rows.find((r) => r.role === "target")?.calls ?? 0).toBeGreaterThan(0);
      expect(await usageRows(fanned)).toEqual(rows);
      expect(many.calls).toBe(one.calls);
      expect(many.promptTokens).toBe(one.promptTokens);
      expect(many.completionTokens).toBe(one.completionTokens);
      if (one.costUsd === null) expect(many.costUsd).toBeNull();
      else expect(many.costUsd).toBeCloseTo(one.costUsd, 9);
    } finally {
      await closeFanOutQueue();
    }
  }, 500_000);

  it("two connections adding usage to one run at once lose nothing", async () => {
    const runId = await newRun({}, "not started");
    const other = createDb(stack.dbUrl);
    try {
      const delta = (stage: string, kind: string) => ({
        role: "target",
        stage,
        backend: "sim",
        model: "sim",
        counters: counters({ calls: 1, promptTokens: 10, completionTokens: 2, costUsd: 0.5, errors: { [kind]: 1 } }),
      });
      const rounds = 20;
      await Promise.all(
        [stack.db, other].flatMap((db, w) =>
          Array.from({ length: rounds }, (_, i) =>
            addLlmUsage(runId, [delta("rollout", `kind${w}`), delta(`stage${i % 2}`, "transient")], db),
          ),
        ),
      );
      const rows = await stack.db.llmUsage.findMany({ where: { runId }, orderBy: { stage: "asc" } });
      expect(rows.map((r) => [r.stage, r.calls, r.promptTokens, r.costUsd])).toEqual([
        ["rollout", 2 * rounds, 20 * rounds, rounds],
        ["stage0", rounds, 10 * rounds, rounds / 2],
        ["stage1", rounds, 10 * rounds, rounds / 2],
      ]);
      expect(JSON.parse(rows[0]!.errorsJson)).toEqual({ kind0: rounds, kind1: rounds });
      expect(JSON.parse(rows[1]!.errorsJson)).toEqual({ transient: rounds });
      const run = await findRun(runId);
      expect([run!.calls, run!.promptTokens, run!.completionTokens, run!.costUsd]).toEqual([
        4 * rounds,
        40 * rounds,
        8 * rounds,
        2 * rounds,
      ]);
      // A recomputation: running it again changes nothing.
      await syncRunTotals(runId, other);
      expect((await findRun(runId))!.calls).toBe(4 * rounds);
    } finally {
      await other.$disconnect();
    }
  }, 120_000);
});

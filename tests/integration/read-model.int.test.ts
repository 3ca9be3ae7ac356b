/**
 * The run's read model: every surface (API run detail, runs list, compare) shows the totals summed from
 * the per-call usage rows, which count every call the backends made — including the last slow update,
 * the meta skill, the final selection check and the test evaluations that come after the last step commit.
 * Every surface, summary.json and the CLI's summary name the same best skill in the same sentence, for a
 * worker's run and for a `skillopt train` run recorded in the dashboard's database.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as compareRoute from "../../app/api/runs/compare/route";
import * as runRoute from "../../app/api/runs/[runId]/route";
import * as runsRoute from "../../app/api/runs/route";
import type { CompareResponse, RunDetail, RunListResponse } from "../../lib/contracts/api";
import { bestSentence } from "../../lib/contracts/best";
import { parseStoredEventsOf } from "../../lib/contracts/stored-events";
import { sumUsage } from "../../lib/contracts/usage-totals";
import { getBestSkill } from "../../lib/db/export";
import { skillHash } from "../../lib/engine";
import { createDb, type Db } from "../../lib/db/client";
import { listRunsToReconcile, resumeRun } from "../../lib/db/run-recovery";
import { formatSummary } from "../../scripts/cli/summary";
import { handleOptimizeRun } from "../../worker/handlers/optimize-run";
import { PROVIDERS, freshDb, useAsDefaultDb } from "../helpers/db";
import { createSimRunRow } from "../helpers/sim-run";

const quiet = { info: () => {}, warn: () => {} };

async function newRun(db: Db, overrides: string[]): Promise<string> {
  return (await createSimRunRow(db, { overrides, name: "read model" })).id;
}

const ctx = (workerId: string, shutdown = new AbortController().signal) => ({
  workerId,
  rootDir: process.cwd(),
  shutdown,
  staleAfterMs: 60_000,
  publish: () => {},
  log: quiet,
});
const local = (path: string) => new Request(`http://127.0.0.1:7860${path}`, { headers: { host: "127.0.0.1:7860" } });

async function surfaces(id: string, other: string) {
  const detail = (await (
    await runRoute.GET(local(`/api/runs/${id}`), { params: Promise.resolve({ runId: id }) })
  ).json()) as RunDetail;
  const list = (await (await runsRoute.GET(local("/api/runs"))).json()) as RunListResponse;
  const cmp = (await (await compareRoute.GET(local(`/api/runs/compare?ids=${id},${other}`))).json()) as CompareResponse;
  const list0 = list.runs.find((r) => r.id === id)!;
  const cmp0 = cmp.runs.find((r) => r.id === id)!;
  const best = {
    detail: { score: detail.bestScore, origin: detail.bestOrigin, measuredBy: detail.bestMeasuredBy },
    list: { score: list0.bestScore, origin: list0.bestOrigin, measuredBy: list0.bestMeasuredBy },
    compare: { score: cmp0.bestScore, origin: cmp0.bestOrigin, measuredBy: cmp0.bestMeasuredBy },
  };
  const pick = (r: { calls: number; promptTokens: number; completionTokens: number; costUsd: number | null }) => ({
    calls: r.calls,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
    costUsd: r.costUsd,
  });
  const metric = detail.config.evaluation.gate_metric;
  return {
    /** The one sentence each surface shows for its best skill. */
    sentences: Object.values(best).map((b) => bestSentence({ ...b, metric })),
    detail: pick(detail),
    list: pick(list.runs.find((r) => r.id === id)!),
    compare: pick(cmp0),
    best,
    raw: detail,
    byStage: sumUsage(detail.usage.map((u) => ({ ...u, costUsd: 0 }))),
  };
}

describe.each(PROVIDERS)("the run read model on %s", (provider) => {
  let db: Db;
  beforeAll(async () => {
    db = (await freshDb(provider)).db;
    useAsDefaultDb(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  const runs: string[] = [];

  /** Checks every surface against the usage rows and returns the totals. */
  async function expectSurfacesAgree(id: string, other: string) {
    const rows = await db.llmUsage.findMany({ where: { runId: id } });
    const truth = sumUsage(rows);
    expect(truth.calls).toBeGreaterThan(0);
    const s = await surfaces(id, other);
    expect(s.detail).toEqual(truth);
    expect(s.list).toEqual(truth);
    expect(s.compare).toEqual(truth);
    const { calls, promptTokens, completionTokens } = truth;
    expect({
      calls: s.byStage.calls,
      promptTokens: s.byStage.promptTokens,
      completionTokens: s.byStage.completionTokens,
    }).toEqual({ calls, promptTokens, completionTokens });
    return { truth, rows };
  }

  it("every surface's totals equal the sum of the usage rows, including the calls after the last step commit", async () => {
    // train.seed=12: the simulated run whose final selection check promotes the epoch-2 slow update.
    const id = await newRun(db, ["train.num_epochs=2", "train.seed=12"]);
    runs.push(id);
    expect(await handleOptimizeRun(id, ctx("w-read"))).toBe("succeeded");
    const other = await newRun(db, ["train.num_epochs=1"]);
    const { truth, rows } = await expectSurfacesAgree(id, other);
    // The engine's own count at the end (summary.json's token_summary._total) agrees with the read model.
    const summary = await db.checkpoint.findUnique({ where: { runId_key: { runId: id, key: "summary.json" } } });
    const total = (
      JSON.parse(summary!.value) as {
        token_summary: { _total: { calls: number; prompt_tokens: number; completion_tokens: number } };
      }
    ).token_summary._total;
    expect({
      calls: total.calls,
      promptTokens: total.prompt_tokens,
      completionTokens: total.completion_tokens,
    }).toEqual({ calls: truth.calls, promptTokens: truth.promptTokens, completionTokens: truth.completionTokens });
    // The last step commit saw fewer calls: the end-of-run work (test evaluations, final slow update …) is counted too.
    const commits = parseStoredEventsOf(
      "stepCommitted",
      await db.runEvent.findMany({ where: { runId: id, type: "stepCommitted" }, orderBy: { seq: "asc" } }),
    );
    const atLastCommit = Object.values(commits.at(-1)!.tokens);
    expect(truth.calls).toBeGreaterThan(atLastCommit.reduce((n, t) => n + (t?.calls ?? 0), 0));
    const stages = new Set(rows.map((r) => r.stage));
    for (const stage of ["rollout", "analyst", "slow_update", "meta_skill"]) expect(stages).toContain(stage);
  });

  it("every surface names the same best score and origin: the slow update the final selection check promoted", async () => {
    const id = runs[0]!;
    const s = await surfaces(id, (await db.run.findFirstOrThrow({ where: { id: { not: id } } })).id);
    // The sample's final selection check scores the epoch-2 slow update above every step's skill.
    const expected = { score: 1, origin: "slow_update_epoch_02", measuredBy: "final_check" };
    expect(s.best.detail).toEqual(expected);
    expect(s.best.list).toEqual(expected);
    expect(s.best.compare).toEqual(expected);
    const summary = JSON.parse(
      (await db.checkpoint.findUniqueOrThrow({ where: { runId_key: { runId: id, key: "summary.json" } } })).value,
    ) as Record<string, unknown>;
    expect({ score: summary.best_selection_hard, origin: summary.best_origin }).toEqual({
      score: 1,
      origin: "slow_update_epoch_02",
    });
    // One sentence on every surface, and in the CLI's summary of the same summary.json, with the check's promotion
    // read from the stored event as the CLI reads it from the engine's.
    const sentence = "Best skill: slow update after epoch 2, selection 1.000 (final selection check)";
    expect(s.sentences).toEqual([sentence, sentence, sentence]);
    const [check] = parseStoredEventsOf(
      "finalSelectionChecked",
      await db.runEvent.findMany({ where: { runId: id, type: "finalSelectionChecked" } }),
    );
    const cliSummary = formatSummary(summary, {
      outDir: "out",
      simulated: true,
      bestMeasuredBy: check?.promoted ? "final_check" : undefined,
      metric: s.raw.config.evaluation.gate_metric,
    });
    expect(cliSummary.split("\n").map((l) => l.trim())).toContain(sentence);
    const best = await getBestSkill(id);
    expect(s.raw.bestSkillHash).toBe(skillHash(best));
    expect(s.raw.bestBytes).toBe(Buffer.byteLength(best, "utf8"));
    // The skill version that is best carries the score the check measured (not "—").
    const slow = s.raw.skillVersions.find((v) => v.kind === "slow_update" && v.contentHash === s.raw.bestSkillHash)!;
    expect(slow.selectionHard).toBe(1);
    expect(check).toMatchObject({ promoted: true, origin: "slow_update_epoch_02", gateScore: 1 });
    expect(check).not.toHaveProperty("bestSkill");
  });

  it("a run stopped mid-step and resumed by another worker counts every call once: never fewer than an uninterrupted run", async () => {
    const id = await newRun(db, ["train.num_epochs=2", "train.seed=12"]);
    const stop = new AbortController();
    const watch = setInterval(() => {
      void db.run.findUnique({ where: { id }, select: { stepsDone: true } }).then((r) => {
        if ((r?.stepsDone ?? 0) >= 2) stop.abort();
      });
    }, 20);
    const first = await handleOptimizeRun(id, ctx("w-first", stop.signal));
    clearInterval(watch);
    expect(first).toBe("requeued");
    const mid = sumUsage(await db.llmUsage.findMany({ where: { runId: id } }));
    expect((await db.run.findUniqueOrThrow({ where: { id } })).calls).toBe(mid.calls);
    expect(await handleOptimizeRun(id, ctx("w-second"))).toBe("succeeded");
    const { truth } = await expectSurfacesAgree(id, runs[0]!);
    const reference = await db.run.findUniqueOrThrow({ where: { id: runs[0]! } });
    // Calls replayed from memos cost nothing; calls in flight at the stop are paid again. Nothing is lost.
    expect(truth.calls).toBeGreaterThanOrEqual(reference.calls);
    expect(truth.calls).toBeGreaterThan(mid.calls);
  });

  it("a CLI run is listed but never queued by a worker: Resume points to the CLI", async () => {
    const id = await newRun(db, ["train.num_epochs=1"]);
    await db.run.update({ where: { id }, data: { source: "cli", outDir: "/tmp/out/x", status: "interrupted" } });
    expect((await listRunsToReconcile()).some((r) => r.id === id)).toBe(false);
    await expect(resumeRun(id, { staleAfterMs: 60_000 })).rejects.toMatchObject({
      code: "CONFLICT",
      userMessage: expect.stringContaining("train --resume /tmp/out/x"),
    });
    expect((await db.run.findUniqueOrThrow({ where: { id } })).status).toBe("interrupted");
  });
});

describe("a CLI run in the dashboard", () => {
  it("`skillopt train` on a fresh SQLite DATABASE_URL: GET /api/runs lists it with summary.json's totals, and the CLI and every surface name the same best", async () => {
    const dir = mkdtempSync(join(tmpdir(), "skillopt-read-model-cli-"));
    const url = `file:${join(dir, "dashboard.db")}`;
    const out = join(dir, "run");
    // The CLI migrates the fresh database itself, as `npm start` does.
    const r = spawnSync(
      process.execPath,
      [
        ...["--import", "tsx", "scripts/cli.ts", "train", "--config", "configs/searchqa/sample.yaml", "--out", out],
        ...["--cfg-options", "train.num_epochs=2", "train.seed=12"],
      ],
      { cwd: process.cwd(), encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", DATABASE_URL: url } },
    );
    expect(r.status, r.stderr).toBe(0);
    const db = createDb(url);
    try {
      useAsDefaultDb(db);
      const listed = ((await (await runsRoute.GET(local("/api/runs"))).json()) as RunListResponse).runs;
      expect(listed.map((x) => x.source)).toEqual(["cli"]);
      const id = listed[0]!.id;
      const s = await surfaces(id, await newRun(db, ["train.num_epochs=1"]));
      const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Record<string, unknown> & {
        token_summary: { _total: { calls: number; prompt_tokens: number } };
      };
      const total = {
        calls: summary.token_summary._total.calls,
        promptTokens: summary.token_summary._total.prompt_tokens,
      };
      for (const surface of [s.detail, s.list, s.compare])
        expect({ calls: surface.calls, promptTokens: surface.promptTokens }).toEqual(total);
      // The CLI's own summary line is the sentence every surface shows; summary.json names the same score and origin.
      const printed = r.stdout
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l.startsWith("Best skill:"));
      expect(printed).toEqual(["Best skill: slow update after epoch 2, selection 1.000 (final selection check)"]);
      expect(s.sentences).toEqual([printed[0], printed[0], printed[0]]);
      expect({ score: summary.best_selection_hard, origin: summary.best_origin }).toEqual({
        score: s.best.detail.score,
        origin: s.best.detail.origin,
      });
    } finally {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

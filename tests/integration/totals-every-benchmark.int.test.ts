/**
 * The read model's totals for a finished sample run of every benchmark, and of a custom run graded by the
 * judge metric (whose judge calls are optimizer calls): the API run detail, the runs list, compare and the
 * engine's own summary.json count exactly what the per-call usage rows count. The SIGKILL + resume case
 * and the CLI summary are in read-model.int.test.ts and scripts/cli.test.ts. The version list and the cost
 * curve, which read the stored events through their schemas, read every benchmark's events.
 * The judge's calls are made by the custom benchmark with the optimizer model; each row carries them
 * (Trajectory.judgeUsage) and the engine counts them under stage "judge", so summary.json agrees too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as compareRoute from "../../app/api/runs/compare/route";
import * as runRoute from "../../app/api/runs/[runId]/route";
import * as runsRoute from "../../app/api/runs/route";
import { ARTIFACT } from "../../lib/contracts/artifacts";
import type { CompareResponse, RunDetail, RunListResponse } from "../../lib/contracts/api";
import { sumUsage } from "../../lib/contracts/usage-totals";
import type { Db } from "../../lib/db/client";
import { getCostCurve } from "../../lib/db/cost-curve";
import { listSkillVersions } from "../../lib/db/skill-versions";
import { handleOptimizeRun } from "../../worker/handlers/optimize-run";
import { freshDb, useAsDefaultDb } from "../helpers/db";
import { createSimRunRow } from "../helpers/sim-run";

const quiet = { info: () => {}, warn: () => {} };
const ctx = {
  workerId: "w-totals",
  rootDir: process.cwd(),
  shutdown: new AbortController().signal,
  staleAfterMs: 60_000,
  publish: () => {},
  log: quiet,
};
const local = (path: string) => new Request(`http://127.0.0.1:7860${path}`, { headers: { host: "127.0.0.1:7860" } });

/** The smallest sample run of each: one epoch on the simulated model. */
const CASES: [string, string, string[]][] = [
  ["alfworld", "configs/alfworld/sample.yaml", []],
  ["docvqa", "configs/docvqa/sample.yaml", []],
  ["livemath", "configs/livemath/sample.yaml", []],
  ["officeqa", "configs/officeqa/sample.yaml", []],
  ["searchqa", "configs/searchqa/sample.yaml", []],
  ["spreadsheetbench", "configs/spreadsheetbench/sample.yaml", []],
  ["custom with the judge metric", "configs/custom/sample.yaml", ["env.metric=judge"]],
];

async function newRun(db: Db, file: string, overrides: string[]): Promise<string> {
  const run = await createSimRunRow(db, {
    file,
    overrides: ["train.num_epochs=1", ...overrides],
    name: `totals ${file.split("/")[1]}`,
    stepsTotal: 1,
  });
  return run.id;
}

const pick = (r: { calls: number; promptTokens: number; completionTokens: number }) => ({
  calls: r.calls,
  promptTokens: r.promptTokens,
  completionTokens: r.completionTokens,
});

describe("totals of a finished sample run of every benchmark equal the sum of its usage rows (sqlite)", () => {
  let db: Db;
  /** A second run for compare (never started). */
  let other = "";
  beforeAll(async () => {
    db = (await freshDb("sqlite")).db;
    useAsDefaultDb(db);
    other = await newRun(db, "configs/searchqa/sample.yaml", []);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it.each(CASES)(
    "%s",
    async (_name, file, overrides) => {
      const id = await newRun(db, file, overrides);
      expect(await handleOptimizeRun(id, ctx)).toBe("succeeded");
      const rows = await db.llmUsage.findMany({ where: { runId: id } });
      const truth = pick(sumUsage(rows));
      expect(truth.calls).toBeGreaterThan(0);
      if (overrides.includes("env.metric=judge")) {
        // The judge grades every answer with the optimizer model: its calls are in the rows and the totals.
        expect(rows.some((r) => r.role === "optimizer" && r.stage.includes("judge"))).toBe(true);
      }
      const detail = (await (
        await runRoute.GET(local(`/api/runs/${id}`), { params: Promise.resolve({ runId: id }) })
      ).json()) as RunDetail;
      const list = (await (await runsRoute.GET(local("/api/runs?limit=100"))).json()) as RunListResponse;
      const cmp = (await (
        await compareRoute.GET(local(`/api/runs/compare?ids=${id},${other}`))
      ).json()) as CompareResponse;
      expect(pick(detail)).toEqual(truth);
      expect(pick(list.runs.find((r) => r.id === id)!)).toEqual(truth);
      expect(pick(cmp.runs.find((r) => r.id === id)!)).toEqual(truth);
      // The typed readers of stored events and step records read this benchmark's run.
      const curve = await getCostCurve(id, { db });
      expect(detail.stepsDone).toBeGreaterThan(0);
      expect(curve.points.map((p) => p.step)).toEqual(Array.from({ length: detail.stepsDone }, (_, i) => i + 1));
      // Cumulative counts: never falling from one commit to the next.
      const calls = curve.points.map((p) => p.calls);
      expect(calls[0]).toBeGreaterThan(0);
      expect(calls).toEqual([...calls].sort((a, b) => a - b));
      const versions = await listSkillVersions(id, { db });
      expect(versions.versions.length).toBeGreaterThan(1);
      const summary = await db.runArtifact.findUniqueOrThrow({
        where: { runId_name: { runId: id, name: ARTIFACT.summary } },
      });
      const total = (
        JSON.parse(summary.content) as {
          token_summary: { _total: { calls: number; prompt_tokens: number; completion_tokens: number } };
        }
      ).token_summary._total;
      expect({
        calls: total.calls,
        promptTokens: total.prompt_tokens,
        completionTokens: total.completion_tokens,
      }).toEqual(truth);
    },
    300_000,
  );
});

/**
 * `skillopt eval` records its run in the dashboard's database the way `train` does (scripts/cli.test.ts):
 * source cli, labelled as an evaluation, with its per-item results and the totals of its usage rows.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sumUsage } from "../lib/contracts/usage-totals";
import { createDb } from "../lib/db/client";
import { getRunDetail } from "../lib/db/run-views";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-cli-eval-"));
/** The dashboard database the CLI records its runs in (never the developer's own .skillopt/skillopt.db). */
const dbUrl = `file:${join(tmp, "dashboard.db")}`;
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0", DATABASE_URL: dbUrl },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("skillopt eval in the dashboard", () => {
  it("eval is recorded in the dashboard's database like train: an evaluation run with its totals and results", async () => {
    const out = join(tmp, "eval-recorded");
    const r = cli([
      "eval",
      "--config",
      "configs/searchqa/sample.yaml",
      "--skill",
      "lib/envs/searchqa/initial.md",
      "--split",
      "valid_unseen",
      "--out",
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, "eval_summary.json"), "utf8")) as { hard: number; soft: number };
    const db = createDb(dbUrl);
    try {
      const run = await db.run.findFirstOrThrow({ where: { outDir: out } });
      expect(run).toMatchObject({ source: "cli", status: "succeeded", env: "searchqa", stepsTotal: 0 });
      expect(run.name).toBe("searchqa · cli eval valid_unseen · eval-recorded");
      expect(run.stopReason).toBe(
        `evaluation only: valid_unseen split, 15 items, hard ${summary.hard.toFixed(3)}, soft ${summary.soft.toFixed(3)}`,
      );
      expect(run.seedSkill).toBe(readFileSync(join(root, "lib/envs/searchqa/initial.md"), "utf8"));
      // The run's totals (what the runs list and the run page show) are the sum of its per-call usage rows.
      const detail = await getRunDetail(run.id, { db });
      const usage = await db.llmUsage.findMany({ where: { runId: run.id } });
      const truth = sumUsage(usage);
      expect(truth.calls).toBeGreaterThanOrEqual(15);
      expect({
        calls: detail.calls,
        promptTokens: detail.promptTokens,
        completionTokens: detail.completionTokens,
      }).toEqual({
        calls: truth.calls,
        promptTokens: truth.promptTokens,
        completionTokens: truth.completionTokens,
      });
      // No optimizer call: an evaluation only asks the target model.
      expect(new Set(usage.map((u) => u.role))).toEqual(new Set(["target"]));
      // Its per-item results are stored as test-split rows, and its one event is the evaluation.
      const rows = await db.evalResult.findMany({ where: { runId: run.id } });
      expect(rows).toHaveLength(15);
      expect(new Set(rows.map((x) => `${x.label}/${x.split}`))).toEqual(new Set(["eval_valid_unseen/test"]));
      const events = await db.runEvent.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
      expect(events.map((e) => e.type)).toEqual(["runClaimed", "evalCompleted"]);
    } finally {
      await db.$disconnect();
    }
    const skipped = cli([
      "eval",
      "--config",
      "configs/searchqa/sample.yaml",
      "--skill",
      "lib/envs/searchqa/initial.md",
      "--split",
      "valid_unseen",
      "--out",
      join(tmp, "eval-no-db"),
      "--no-db",
    ]);
    expect(skipped.code, skipped.stderr).toBe(0);
    const db2 = createDb(dbUrl);
    try {
      expect(await db2.run.count({ where: { outDir: join(tmp, "eval-no-db") } })).toBe(0);
    } finally {
      await db2.$disconnect();
    }
  }, 120_000);
});

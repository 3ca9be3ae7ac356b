/** `skillopt train` end to end: the original's layout, the dashboard record, a fresh run refused over an old one, Ctrl-C and --resume. Bad input: cli-input.test.ts. */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../lib/db/client";
import { cliSandbox } from "./cli/testing";

const { root, tmp, dbUrl, cli, cleanup } = cliSandbox("skillopt-cli-");
afterAll(cleanup);

describe("skillopt train", () => {
  it("runs the SearchQA sample offline, writes the original's layout and records the run for the dashboard", async () => {
    const out = join(tmp, "sample");
    const r = cli([
      "train",
      "--config",
      "configs/searchqa/sample.yaml",
      "--out",
      out,
      "--cfg-options",
      "train.num_epochs=2",
      // The seed whose simulated run ends with the final selection check promoting the epoch-2 slow update.
      "train.seed=12",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Simulated model — scores are synthetic.");
    expect(r.stderr).toMatch(/\[step 1\/6\] rollout hard/);
    expect(r.stdout).toMatch(/selection\s+0\.\d{3} \(baseline\) → \d\.\d{3} \(best\)/);
    // The same sentence the dashboard shows for this run (tests/integration/read-model.int.test.ts).
    expect(r.stdout).toContain("Best skill: slow update after epoch 2, selection 1.000 (final selection check)");
    expect(r.stdout).toMatch(/test\s+initial 0\.\d{3} · best \d\.\d{3} · final \d\.\d{3}/);
    expect(r.stdout).toMatch(/analyst\s+\d+ calls/);
    // The run is in the dashboard's database with the same totals and best as its summary.json.
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
      token_summary: { _total: { calls: number; prompt_tokens: number } };
      best_selection_hard: number;
      best_origin: string;
    };
    const db = createDb(dbUrl);
    try {
      const runs = await db.run.findMany({
        select: {
          source: true,
          status: true,
          calls: true,
          promptTokens: true,
          bestScore: true,
          bestOrigin: true,
          outDir: true,
        },
      });
      expect(runs).toEqual([
        {
          source: "cli",
          status: "succeeded",
          calls: summary.token_summary._total.calls,
          promptTokens: summary.token_summary._total.prompt_tokens,
          bestScore: summary.best_selection_hard,
          bestOrigin: summary.best_origin,
          outDir: out,
        },
      ]);
    } finally {
      await db.$disconnect();
    }
    for (const f of [
      "best_skill.md",
      "history.json",
      "summary.json",
      "config.json",
      "runtime_state.json",
      "skills/skill_v0000.md",
      "steps/step_0001/step_record.json",
      "steps/step_0001/rollout/results.jsonl",
      "selection_eval_baseline/results.jsonl",
      "test_eval/summary.json",
    ]) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    const preds = readdirSync(join(out, "steps/step_0001/rollout/predictions"));
    expect(preds.length).toBe(10);
    expect(
      JSON.parse(readFileSync(join(out, "steps/step_0001/rollout/predictions", preds[0]!, "conversation.json"), "utf8"))
        .length,
    ).toBeGreaterThan(0);
  });

  it("an unreachable dashboard database is one warning line, never a failed run; --no-db does not touch it", () => {
    const out = join(tmp, "no-db-server");
    const r = cli(
      ["train", "--config", "configs/searchqa/sample.yaml", "--out", out, "--cfg-options", "train.num_epochs=1"],
      { DATABASE_URL: "postgresql://nobody:x@127.0.0.1:1/none" },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split("\n").filter((l) => l.includes("database"))).toHaveLength(1);
    expect(r.stderr).toMatch(/warning: the dashboard database is not available .*kept in its output folder only/);
    expect(existsSync(join(out, "summary.json"))).toBe(true);
    const file = join(tmp, "untouched.db");
    const n = cli(
      [
        "train",
        "--config",
        "configs/searchqa/sample.yaml",
        "--out",
        join(tmp, "no-db"),
        "--no-db",
        "--cfg-options",
        "train.num_epochs=1",
      ],
      { DATABASE_URL: `file:${file}` },
    );
    expect(n.code, n.stderr).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses to start a fresh run over an existing one", () => {
    const r = cli(["train", "--config", "configs/searchqa/sample.yaml", "--out", join(tmp, "sample")]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: .*already holds a run; resume it with --resume/);
  });

  it("Ctrl-C stops cleanly and --resume finishes with the skill of an uninterrupted run", async () => {
    const ref = join(tmp, "ref");
    const opts = ["--cfg-options", "train.num_epochs=2", "model.sim_latency_ms=4"];
    expect(cli(["train", "--config", "configs/searchqa/sample.yaml", "--out", ref, ...opts]).code).toBe(0);
    const out = join(tmp, "interrupted");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/cli.ts", "train", "--config", "configs/searchqa/sample.yaml", "--out", out, ...opts],
      { cwd: root, env: { ...process.env, DATABASE_URL: dbUrl } },
    );
    let err = "";
    let sent = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on("data", (d: Buffer) => {
        err += d.toString();
        if (!sent && err.includes("[step 3/6] analysts")) {
          sent = true;
          child.kill("SIGINT");
        }
      });
      child.on("exit", (c) => resolve(c));
    });
    expect(code).toBe(130);
    expect(err).toContain(`resume with: npm run skillopt -- train --resume ${out}`);
    const r = cli(["train", "--resume", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/resuming after step 2 of 6/);
    expect(readFileSync(join(out, "best_skill.md"), "utf8")).toBe(readFileSync(join(ref, "best_skill.md"), "utf8"));
    const strip = (h: Array<Record<string, unknown>>) => h.map(({ wall_time_s, timing, ...rest }) => rest);
    expect(strip(JSON.parse(readFileSync(join(out, "history.json"), "utf8")))).toEqual(
      strip(JSON.parse(readFileSync(join(ref, "history.json"), "utf8"))),
    );
    // The dashboard has one row for the interrupted-and-resumed run: every step once, totals from its usage rows.
    const db = createDb(dbUrl);
    try {
      const [row, ...others] = await db.run.findMany({ where: { outDir: out } });
      expect(others).toHaveLength(0);
      expect(row).toMatchObject({ source: "cli", status: "succeeded", stepsDone: 6 });
      expect(await db.step.count({ where: { runId: row!.id } })).toBe(6);
      const usage = await db.llmUsage.findMany({ where: { runId: row!.id } });
      expect(row!.calls).toBe(usage.reduce((n, u) => n + u.calls, 0));
      const reference = await db.run.findFirstOrThrow({ where: { outDir: ref } });
      expect(row!.calls).toBeGreaterThanOrEqual(reference.calls);
      expect(row!.bestSkillHash).toBe(reference.bestSkillHash);
    } finally {
      await db.$disconnect();
    }
  }, 90_000);
});

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../lib/db/client";
import { pathWithoutBwrap, removeTempDirs } from "../lib/envs/spreadsheetbench/test-fixtures";

const root = join(import.meta.dirname, "..");
const tmp = mkdtempSync(join(tmpdir(), "skillopt-cli-"));
/** The dashboard database the CLI records its runs in (never the developer's own .skillopt/skillopt.db). */
const dbUrl = `file:${join(tmp, "dashboard.db")}`;
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  removeTempDirs();
});

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0", DATABASE_URL: dbUrl, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(name: string, text: string): string {
  const p = join(tmp, name);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, text);
  return p;
}

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

describe("bad input: one line, non-zero exit, nothing written", () => {
  const cases: Array<[string, () => string[], RegExp]> = [
    [
      "invalid YAML",
      () => ["--config", write("bad.yaml", "train:\n  batch_size: [1,\n")],
      /bad\.yaml:\d+:\d+: invalid YAML/,
    ],
    [
      "unknown key",
      () => [
        "--config",
        write("unknown.yaml", "_base_: " + join(root, "configs/searchqa/sample.yaml") + "\ntrain:\n  batch_sise: 3\n"),
      ],
      /train\.batch_sise.*unknown\.yaml.*did you mean train\.batch_size/,
    ],
    [
      "wrong type",
      () => ["--config", "configs/searchqa/sample.yaml", "--cfg-options", "train.batch_size=abc"],
      /train\.batch_size: .*--cfg-options/,
    ],
    [
      "circular _base_",
      () => {
        write("a.yaml", "_base_: b.yaml\n");
        return ["--config", write("b.yaml", "_base_: a.yaml\n")];
      },
      /circular/,
    ],
    [
      "missing skill file",
      () => ["--config", "configs/searchqa/sample.yaml", "--cfg-options", "env.skill_init=nope/missing.md"],
      /env\.skill_init: cannot read skill file .*missing\.md \(not found\)/,
    ],
    [
      "missing split folder",
      () => [
        "--config",
        "configs/searchqa/default.yaml",
        "--cfg-options",
        "model.backend=sim",
        "train.train_size=0",
        `env.split_dir=${join(tmp, "nosplits")}`,
      ],
      /nosplits/,
    ],
    [
      "malformed items",
      () => {
        for (const s of ["train", "val", "test"])
          write(
            `splits/${s}/items.json`,
            s === "val"
              ? '[{"id":"a","question":"q","context":"c","answers":["x"]},{"question":"no id"}]'
              : '[{"id":"a","question":"q","context":"c","answers":["x"]}]',
          );
        return [
          "--config",
          "configs/searchqa/default.yaml",
          "--cfg-options",
          "model.backend=sim",
          "train.train_size=0",
          `env.split_dir=${join(tmp, "splits")}`,
        ];
      },
      /val.*items\.json.*(item|index) 1/,
    ],
    [
      "out-of-range hyper-parameter",
      () => ["--config", "configs/searchqa/sample.yaml", "--cfg-options", "gradient.merge_batch_size=1"],
      /gradient\.merge_batch_size/,
    ],
    [
      "unknown backend",
      () => ["--config", "configs/searchqa/sample.yaml", "--cfg-options", "model.backend=gpt"],
      /model\.backend: unknown backend 'gpt'; known: sim, openai/,
    ],
  ];
  it.each(cases)("%s", (_name, args, message) => {
    const out = join(tmp, `never-${_name.replace(/\W+/g, "-")}`);
    const r = cli(["train", ...args(), "--out", out]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[0]).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it("trains on your own file with --data and a field mapping, and prints the data and split hashes", () => {
    const rows = readFileSync(join(root, "configs/custom/example.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const data = write(
      "mine.jsonl",
      rows.map((r) => JSON.stringify({ q: r.prompt, a: r.gold, c: r.passage, sim: r.sim })).join("\n"),
    );
    const mapping = [
      "env.question_field=q",
      "env.answer_field=a",
      "env.context_field=c",
      `env.split_output_dir=${join(tmp, "mine-splits")}`,
    ];
    const args = [
      "train",
      "--config",
      "configs/custom/sample.yaml",
      "--data",
      data,
      "--out",
      join(tmp, "custom"),
      "--cfg-options",
      "train.num_epochs=1",
      ...mapping,
    ];
    const r = cli(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^data: ${data} \\(sha256 [0-9a-f]{12}\\)$`, "m"));
    expect(r.stderr).toMatch(
      /^splits \(ratio\): train 20 \[[0-9a-f]{12}\] · selection 10 \[[0-9a-f]{12}\] · test 10 \[[0-9a-f]{12}\]$/m,
    );
    const bad = cli([
      "train",
      "--config",
      "configs/custom/default.yaml",
      "--data",
      data,
      "--cfg-options",
      "env.question_field=question",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      `error: ${data}: item 0: missing field 'question'; the item has fields: q, a, c (env.question_field)`,
    );
  });

  it("writes nothing — no output folder, no split files — for a ratio-split run it rejects", () => {
    const splits = join(tmp, "rejected-splits");
    const out = join(tmp, "rejected-out");
    const data = join(root, "configs/custom/example.jsonl");
    const r = cli([
      "train",
      "--config",
      "configs/custom/sample.yaml",
      "--data",
      data,
      "--out",
      out,
      "--cfg-options",
      `env.split_output_dir=${splits}`,
      "train.train_size=7",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: train\.train_size is 7 but the train split has 20 items$/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(splits)).toBe(false);
  });

  it("eval needs a skill file that exists", () => {
    const r = cli(["eval", "--config", "configs/searchqa/sample.yaml", "--skill", "nope.md"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^error: --skill: cannot read skill file .*nope\.md \(not found\)$/);
  });

  it("eval scores a skill on a split without optimizer calls", () => {
    const out = join(tmp, "eval");
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
    const summary = JSON.parse(readFileSync(join(out, "eval_summary.json"), "utf8"));
    expect(summary).toMatchObject({ split: "valid_unseen", n_items: 15 });
    expect(summary.hard).toBeLessThan(0.5);
  });

  it("refuses SpreadsheetBench without bubblewrap and writes nothing; with env.allow_unsandboxed it runs and warns", () => {
    const PATH = pathWithoutBwrap();
    const out = join(tmp, "eval-ssb");
    const args = [
      "eval",
      "--config",
      "configs/spreadsheetbench/sample.yaml",
      "--skill",
      "lib/envs/spreadsheetbench/initial.md",
      "--split",
      "valid_unseen",
      "--out",
      out,
    ];
    const refused = cli(args, { PATH });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(
      /^error: SpreadsheetBench needs these system packages: bubblewrap — .*Install them with: apt-get install -y bubblewrap \(or set env\.allow_unsandboxed: true/,
    );
    expect(existsSync(out)).toBe(false);
    const allowed = cli([...args, "--cfg-options", "env.allow_unsandboxed=true", "env.limit=2"], { PATH });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain(
      "warning: SpreadsheetBench scripts run WITHOUT a sandbox (env.allow_unsandboxed: true; bubblewrap (bwrap) is not installed or not on PATH)",
    );
    expect(existsSync(join(out, "eval_summary.json"))).toBe(true);
  }, 120_000);
});

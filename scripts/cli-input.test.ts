/** The `skillopt` CLI on bad input (one line, non-zero exit, nothing written), --data with a field mapping, and eval. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pathWithoutBwrap, removeTempDirs } from "../lib/envs/spreadsheetbench/test-fixtures";
import { cliSandbox } from "./cli/testing";

const { root, tmp, cli, write, cleanup } = cliSandbox("skillopt-cli-input-");
afterAll(() => {
  cleanup();
  removeTempDirs();
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

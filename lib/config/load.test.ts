import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalBenchmark, envOptionsSchema } from "../envs/catalog";
import { ConfigError, loadRunConfig, parseRunConfigText } from "./index";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skillopt-config-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `text` to `name` inside the temp dir and returns the absolute path. */
function put(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** The ConfigError thrown by `fn` (fails the test if none is thrown). */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.code).toBe("INVALID_REQUEST");
    expect(e.message).not.toContain("\n");
    return e;
  }
  throw new Error("expected a ConfigError");
}

describe("_base_ inheritance", () => {
  it("follows a three-deep chain, child winning and files listed base first", () => {
    const a = put("a.yaml", "train: {batch_size: 5, num_epochs: 2}\noptimizer: {learning_rate: 6}\n");
    const b = put("sub/b.yaml", "_base_: ../a.yaml\ntrain: {batch_size: 7}\n");
    const c = put("sub/deeper/c.yaml", "_base_: ../b.yaml\noptimizer: {min_learning_rate: 1}\n");
    const { config, files } = loadRunConfig(c);
    expect(files).toEqual([a, b, c]);
    expect(config.train).toMatchObject({ batch_size: 7, num_epochs: 2 });
    expect(config.optimizer).toMatchObject({ learning_rate: 6, min_learning_rate: 1 });
  });

  it("lets a child win across flat and structured spellings", () => {
    put("flat.yaml", "edit_budget: 6\nbatch_size: 12\n");
    const child = put("child.yaml", "_base_: flat.yaml\noptimizer: {learning_rate: 2}\n");
    expect(loadRunConfig(child).config.optimizer.learning_rate).toBe(2);
    expect(loadRunConfig(child).config.train.batch_size).toBe(12);
    put("structured.yaml", "optimizer: {learning_rate: 6}\n");
    const flatChild = put("flat-child.yaml", "_base_: structured.yaml\nedit_budget: 1\n");
    expect(loadRunConfig(flatChild).config.optimizer.learning_rate).toBe(1);
  });

  it("replaces lists instead of merging them", () => {
    put("base.yaml", "evaluation: {leading_words: [a, b, c]}\nenv: {name: officeqa, data_dirs: [x, y]}\n");
    const child = put("child.yaml", "_base_: base.yaml\nevaluation: {leading_words: [z]}\nenv: {data_dirs: [w]}\n");
    const { config } = loadRunConfig(child);
    expect(config.evaluation.leading_words).toEqual(["z"]);
    expect(config.env.data_dirs).toEqual(["w"]);
  });

  it("reports a circular chain with the cycle", () => {
    put("x.yaml", "_base_: y.yaml\n");
    put("y.yaml", "_base_: x.yaml\n");
    const e = configError(() => loadRunConfig(join(dir, "x.yaml")));
    expect(e.message).toMatch(/^circular _base_ inheritance: .*x\.yaml → .*y\.yaml → .*x\.yaml$/);
  });

  it("names a missing base and the file that referenced it", () => {
    const child = put("child.yaml", "_base_: nowhere.yaml\n");
    const e = configError(() => loadRunConfig(child));
    expect(e.message).toContain(join(dir, "nowhere.yaml"));
    expect(e.message).toContain(child);
  });

  it("rejects a list of bases and a missing root file", () => {
    const e = configError(() => loadRunConfig(put("c.yaml", "_base_: [a.yaml, b.yaml]\n")));
    expect(e.message).toContain("not a list");
    expect(configError(() => loadRunConfig(join(dir, "absent.yaml"))).message).toContain("config file not found");
  });

  it("treats an empty file as {}", () => {
    expect(loadRunConfig(put("empty.yaml", "")).config.train.batch_size).toBe(40);
    expect(loadRunConfig(put("comments.yaml", "# nothing\n")).config.train.batch_size).toBe(40);
  });
});

describe("errors", () => {
  it("names the file and line of invalid YAML", () => {
    const path = put("bad.yaml", "train:\n  batch_size: 4\n  seed: [1, 2\nenv: {}\n");
    const e = configError(() => loadRunConfig(path));
    expect(e.message).toMatch(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: invalid YAML`));
    expect(configError(() => loadRunConfig(put("dup.yaml", "a: 1\na: 2\n"))).message).toContain("dup.yaml:2:1");
  });

  it("names an unknown key, its file, and the closest known key", () => {
    const path = put("typo.yaml", "train:\n  batch_sise: 4\n");
    const e = configError(() => loadRunConfig(path));
    expect(e.message).toBe(`unknown key train.batch_sise in ${path}; did you mean train.batch_size?`);
    expect(e.field).toBe("train.batch_sise");
    const wrongSection = configError(() => loadRunConfig(put("ws.yaml", "train: {learning_rate: 3}\n")));
    expect(wrongSection.message).toContain("did you mean optimizer.learning_rate?");
  });

  it("checks env keys against the chosen benchmark", () => {
    const e = configError(() => loadRunConfig(put("e.yaml", "env: {name: searchqa, max_steps: 3}\n")));
    expect(e.message).toContain("unknown key env.max_steps");
    expect(e.message).toContain("alfworld");
    const unknown = configError(() => loadRunConfig(put("u.yaml", "env: {name: nosuch}\n")));
    expect(unknown.message).toContain("unknown benchmark 'nosuch'");
    expect(unknown.message).toContain("livemath (livemathematicianbench, livemathbench)");
  });

  it("lets backend transport keys through under model, and nothing else", () => {
    const ok = put("m.yaml", "model: {azure_openai_endpoint: https://x, codex_exec_profile: p, max_retries: 2}\n");
    expect(loadRunConfig(ok).config.model).toMatchObject({ azure_openai_endpoint: "https://x", max_retries: 2 });
    expect(configError(() => loadRunConfig(put("m2.yaml", "model: {temperature: 1}\n"))).message).toContain(
      "model.temperature",
    );
  });

  it("names path, expected type and file for a wrong type", () => {
    const path = put("type.yaml", "train:\n  batch_size: many\n");
    const e = configError(() => loadRunConfig(path));
    expect(e.message).toMatch(/^train\.batch_size: .*expected number.* \(expected integer in \[1, 10000\]\) — set in /);
    expect(e.message.endsWith(path)).toBe(true);
    expect(e.field).toBe("train.batch_size");
  });

  it("blames the layer that last set the bad value", () => {
    const base = put("base.yaml", "evaluation: {gate_mixed_weight: 3}\n");
    const child = put("child.yaml", "_base_: base.yaml\ntrain: {seed: 1}\n");
    expect(configError(() => loadRunConfig(child)).message).toContain(`set in ${base}`);
    const flat = put("flat.yaml", "batch_size: 0\n");
    expect(configError(() => loadRunConfig(flat)).message).toContain(`set in ${flat} (as batch_size)`);
  });

  it("rejects secrets at any depth", () => {
    const path = put("s.yaml", "model:\n  azure_openai_api_key: sk-123\n");
    const e = configError(() => loadRunConfig(path));
    expect(e.message).toBe(
      `model.azure_openai_api_key in ${path}: secrets are read from environment variables, not config files`,
    );
    for (const key of ["GITHUB_TOKEN", "client-secret", "db_password", "x_api-key"]) {
      expect(configError(() => loadRunConfig(put("t.yaml", `env:\n  nested: {${key}: v}\n`))).message).toContain(key);
    }
    expect(configError(() => loadRunConfig(put("o.yaml", ""), ["model.openai_api_key=sk"])).message).toContain(
      "--cfg-options",
    );
  });

  it("refuses out-of-range values with a one-line message", () => {
    const cfg = put("ok.yaml", "");
    const merge = configError(() => loadRunConfig(cfg, ["gradient.merge_batch_size=1"]));
    expect(merge.message).toMatch(
      /^gradient\.merge_batch_size: .* \(expected integer in \[2, 10000\]\) — set in --cfg-options$/,
    );
    const weight = configError(() => loadRunConfig(cfg, ["evaluation.gate_mixed_weight=2"]));
    expect(weight.message).toMatch(
      /^evaluation\.gate_mixed_weight: .* \(expected number in \[0, 1\]\) — set in --cfg-options$/,
    );
    expect(configError(() => loadRunConfig(cfg, ["train.seed=inf"])).field).toBe("train.seed");
  });
});

describe("flat legacy configs and aliases", () => {
  it("maps every flat key into its section", () => {
    const path = put(
      "legacy.yaml",
      [
        "model_backend: azure",
        "optimizer_model: o-model",
        "target_model: t-model",
        "edit_budget: 5",
        "min_edit_budget: 1",
        "batch_size: 10",
        "minibatch_size: 3",
        "use_gate: false",
        "seed: 9",
        "env: livemathematicianbench",
        "use_theorem: true",
        "codex_path: /bin/codex",
        "workers: 3",
        "",
      ].join("\n"),
    );
    const { config } = loadRunConfig(path);
    expect(config.model).toMatchObject({
      backend: "azure",
      optimizer: "o-model",
      target: "t-model",
      codex_exec_path: "/bin/codex",
    });
    expect(config.optimizer).toMatchObject({ learning_rate: 5, min_learning_rate: 1 });
    expect(config.train).toMatchObject({ batch_size: 10, seed: 9 });
    expect(config.gradient.minibatch_size).toBe(3);
    expect(config.evaluation.use_gate).toBe(false);
    expect(config.env).toMatchObject({ name: "livemath", use_theorem: true, workers: 3 });
  });

  it("prefers the structured spelling inside one layer, with a warning", () => {
    const path = put("both.yaml", "batch_size: 3\ntrain: {batch_size: 4}\n");
    const loaded = loadRunConfig(path);
    expect(loaded.config.train.batch_size).toBe(4);
    expect(loaded.warnings).toEqual([`batch_size and train.batch_size are both set in ${path}; train.batch_size wins`]);
  });

  it("canonicalises enum aliases and benchmark aliases", () => {
    const path = put(
      "alias.yaml",
      "optimizer: {lr_control_mode: auto, skill_update_mode: rewrite}\nenv: {name: LiveMathematicianBench}\n",
    );
    const { config, resolvedYaml } = loadRunConfig(path);
    expect(config.optimizer.lr_control_mode).toBe("autonomous");
    expect(config.optimizer.skill_update_mode).toBe("rewrite_from_suggestions");
    expect(config.env.name).toBe("livemath");
    expect(resolvedYaml).toContain("name: livemath");
    expect(canonicalBenchmark(" livemathbench ")).toBe("livemath");
    expect(canonicalBenchmark("nope")).toBeNull();
    expect(envOptionsSchema("alfworld")?.parse({})).toEqual({
      simulator: "builtin",
      max_steps: 50,
      max_api_workers: 8,
    });
  });

  it("drops the retired max_analyst_rounds with a warning naming the source", () => {
    const path = put("retired.yaml", "gradient: {max_analyst_rounds: 3, minibatch_size: 2}\n");
    const loaded = loadRunConfig(path, ["max_analyst_rounds=4"]);
    expect(loaded.config.gradient).not.toHaveProperty("max_analyst_rounds");
    expect(loaded.warnings).toEqual([
      `gradient.max_analyst_rounds in ${path} is retired and was ignored`,
      "max_analyst_rounds in --cfg-options is retired and was ignored",
    ]);
  });

  it("validates the custom benchmark's field mapping", () => {
    const ok = put("c.yaml", "env: {name: custom, data_path: d.jsonl, question_field: q, metric: numeric}\n");
    expect(loadRunConfig(ok).config.env).toMatchObject({
      question_field: "q",
      answer_field: "answer",
      metric: "numeric",
    });
    const bad = put("c2.yaml", "env: {name: custom, metric: regex}\n");
    expect(configError(() => loadRunConfig(bad)).message).toMatch(/^env\.answer_regex: metric 'regex' needs/);
  });
});

describe("parseRunConfigText", () => {
  it("resolves _base_ against baseDir and names the posted source", () => {
    const base = put("configs/base.yaml", "train: {batch_size: 6}\n");
    const loaded = parseRunConfigText("_base_: configs/base.yaml\ntrain: {seed: 3}\n", {
      baseDir: dir,
      overrides: ["seed=4"],
    });
    expect(loaded.files).toEqual([base]);
    expect(loaded.config.train).toMatchObject({ batch_size: 6, seed: 4 });
    const e = configError(() => parseRunConfigText("train: {bogus: 1}\n", { sourceName: "form" }));
    expect(e.message).toContain("in form");
  });

  it("does not let a posted config reach outside baseDir", () => {
    const inner = join(dir, "inner");
    mkdirSync(inner);
    put("outside.yaml", "");
    expect(configError(() => parseRunConfigText("_base_: ../outside.yaml\n", { baseDir: inner })).message).toContain(
      "outside",
    );
  });
});

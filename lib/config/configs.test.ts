import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CONFIG_SECTIONS, RunConfigSchema } from "../contracts/run-config";
import { loadRunConfig, parseRunConfigText } from "./index";
import { sectionKeys } from "./keys";

const CONFIGS = fileURLToPath(new URL("../../configs", import.meta.url));
const yamlFiles = readdirSync(CONFIGS, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".yaml") || f.endsWith(".yml"))
  .sort();

describe("shipped configs", () => {
  it("finds the configs folder", () => {
    expect(yamlFiles).toContain(join("_base_", "default.yaml"));
    expect(yamlFiles.length).toBeGreaterThanOrEqual(10);
  });

  it.each(yamlFiles)("%s loads and validates without warnings", (file) => {
    const loaded = loadRunConfig(join(CONFIGS, file));
    expect(loaded.warnings).toEqual([]);
    expect(loaded.files.at(-1)).toBe(join(CONFIGS, file));
    expect(loaded.files[0]).toBe(join(CONFIGS, "_base_", "default.yaml"));
    // The resolved YAML is itself a valid config that loads to the same result.
    expect(parseRunConfigText(loaded.resolvedYaml).config).toEqual(loaded.config);
  });

  it("the base file equals the schema defaults and lists every key", () => {
    const path = join(CONFIGS, "_base_", "default.yaml");
    expect(loadRunConfig(path).config).toEqual(RunConfigSchema.parse({}));
    const raw = parse(readFileSync(path, "utf8")) as Record<string, Record<string, unknown>>;
    for (const section of CONFIG_SECTIONS) {
      expect(Object.keys(raw[section] ?? {}).sort(), section).toEqual(sectionKeys(section).sort());
    }
  });

  it.each([
    ["searchqa", "searchqa", "data/searchqa_split"],
    ["livemath", "livemath", "data/livemathematicianbench_split"],
    ["docvqa", "docvqa", "data/docvqa/splits"],
    ["officeqa", "officeqa", "data/officeqa_split"],
    ["spreadsheetbench", "spreadsheetbench", "data/spreadsheetbench_split"],
    ["alfworld", "alfworld", "data/alfworld_path_split"],
  ])("%s/default.yaml names its benchmark and split folder", (folder, name, splitDir) => {
    const { config } = loadRunConfig(join(CONFIGS, folder, "default.yaml"));
    expect(config.env.name).toBe(name);
    expect(config.env.split_mode).toBe("split_dir");
    expect(config.env.split_dir).toBe(splitDir);
    // The paper settings start from the original's seed for the benchmark (configs/<name>/seed-paper.md,
    // checked in lib/config/paper-seeds.test.ts); the offline sample keeps our own seed.
    expect(config.env.skill_init).toBe(`configs/${folder}/seed-paper.md`);
    const sample = loadRunConfig(join(CONFIGS, folder, "sample.yaml")).config;
    expect(sample.env.skill_init).toBe(`lib/envs/${name}/initial.md`);
  });

  it("benchmark defaults carry their benchmark-specific keys", () => {
    const load = (b: string) => loadRunConfig(join(CONFIGS, b, "default.yaml")).config;
    expect(load("searchqa").train.train_size).toBe(400);
    expect(load("spreadsheetbench").train.train_size).toBe(80);
    expect(load("spreadsheetbench").env).toMatchObject({ mode: "multi", max_turns: 30, exec_timeout: 600 });
    expect(load("livemath").env).toMatchObject({ shuffle_choices: true, use_theorem: false, exec_timeout: 300 });
    expect(load("alfworld").env).toMatchObject({ max_steps: 50, max_api_workers: 8, workers: 8 });
    expect(load("officeqa").env).toMatchObject({ max_tool_turns: 24, data_dirs: ["data/officeqa_docs_official"] });
    expect(load("docvqa").env).toMatchObject({ image_detail: "auto", workers: 16 });
  });

  it("soft_gate switches the gate metric only", () => {
    const { config } = loadRunConfig(join(CONFIGS, "features", "soft_gate.yaml"));
    expect(config.evaluation.gate_metric).toBe("soft");
    expect({ ...config, evaluation: RunConfigSchema.parse({}).evaluation }).toEqual(RunConfigSchema.parse({}));
  });

  it.each(["searchqa", "livemath"])("%s/sample.yaml runs offline on the simulated model", (b) => {
    const { config } = loadRunConfig(join(CONFIGS, b, "sample.yaml"));
    expect(config.model).toMatchObject({ backend: "sim", optimizer: "sim-optimizer", target: "sim-target" });
    expect(config.env).toMatchObject({ name: b, split_mode: "sample", workers: 8 });
    expect(config.train).toMatchObject({ train_size: 0, num_epochs: 3, batch_size: 10 });
    expect(config.gradient).toMatchObject({ minibatch_size: 4, analyst_workers: 8 });
    expect(config.optimizer).toMatchObject({ learning_rate: 2, min_learning_rate: 1, slow_update_samples: 10 });
  });

  it.each(["docvqa", "officeqa", "spreadsheetbench", "alfworld", "custom"])(
    "%s/sample.yaml uses only the simulated model",
    (b) => {
      const { config } = loadRunConfig(join(CONFIGS, b, "sample.yaml"));
      expect(config.model).toMatchObject({ backend: "sim", optimizer: "sim-optimizer", target: "sim-target" });
      expect(config.env.name).toBe(b);
      // Each benchmark's own sim-run test proves the preset improves; here: it needs no data download.
      expect(config.env.split_mode === "sample" || config.env.data_path.startsWith("configs/")).toBe(true);
    },
  );
});

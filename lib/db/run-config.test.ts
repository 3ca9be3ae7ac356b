import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { redactSecrets } from "../contracts/redact";
import { AppError } from "../errors";
import { runConfigOf } from "./runs";

const SAMPLES = readdirSync("configs")
  .map((dir) => `configs/${dir}/sample.yaml`)
  .filter((f) => existsSync(f))
  .sort();

describe("runConfigOf: the stored run config is parsed with the config schema when read back", () => {
  it.each(SAMPLES)("%s stored as the routes and the CLI store it reads back equal", (file) => {
    const { config } = loadRunConfig(file, []);
    for (const stored of [config, redactSecrets(config)]) {
      expect(runConfigOf({ id: "r1", configJson: JSON.stringify(stored) })).toEqual(stored);
    }
  });

  it("a stored config that no longer parses names the run and the field", () => {
    const { config } = loadRunConfig("configs/searchqa/sample.yaml", []);
    const bad = { ...config, train: { ...config.train, num_epochs: "three" } };
    let err: unknown;
    try {
      runConfigOf({ id: "run-42", configJson: JSON.stringify(bad) });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).field).toBe("train.num_epochs");
    expect((err as AppError).message).toMatch(
      /^run run-42: its stored config field train\.num_epochs no longer parses/,
    );
  });

  it("a key the schema does not know and a column that is not JSON are errors too, never a cast", () => {
    const { config } = loadRunConfig("configs/searchqa/sample.yaml", []);
    expect(() => runConfigOf({ id: "r2", configJson: JSON.stringify({ ...config, retired: 1 }) })).toThrow(/run r2/);
    expect(() => runConfigOf({ id: "r3", configJson: "{not json" })).toThrow(
      /run r3: its stored config no longer parses: not JSON/,
    );
  });
});

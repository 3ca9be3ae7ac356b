import { afterAll, describe, expect, it } from "vitest";
import { loadRunConfig } from "../config";
import { pathWithoutBwrap, removeTempDirs, TEST_VARS } from "../envs/spreadsheetbench/test-fixtures";
import { prepareRun } from "./prepare";

afterAll(removeTempDirs);

const load = (overrides: string[]) => loadRunConfig("configs/searchqa/sample.yaml", overrides).config;

describe("prepareRun and the model backends", () => {
  it("refuses a backend whose key is not in the environment, naming the variable", () => {
    const config = load(["model.backend=openai"]);
    expect(() => prepareRun({ config, rootDir: process.cwd(), trust: "local", env: {} })).toThrow(
      /set OPENAI_API_KEY \(or OPTIMIZER_OPENAI_API_KEY for the optimizer only\)/,
    );
    expect(() =>
      prepareRun({
        config: load(["model.backend=azure"]),
        rootDir: process.cwd(),
        trust: "local",
        env: { AZURE_OPENAI_API_KEY: "k" },
      }),
    ).toThrow(/set AZURE_OPENAI_ENDPOINT/);
  });

  it("refuses a base URL that is not http(s) and an unknown preset", () => {
    const env = { OPENAI_API_KEY: "k" };
    expect(() =>
      prepareRun({
        config: load(["model.backend=openai", "model.openai_base_url=ws://x"]),
        rootDir: process.cwd(),
        trust: "local",
        env,
      }),
    ).toThrow(/model.openai_base_url: 'ws:\/\/x' must be an http/);
    expect(() =>
      prepareRun({
        config: load(["model.backend=compat", "model.compatible_preset=foo"]),
        rootDir: process.cwd(),
        trust: "local",
        env,
      }),
    ).toThrow(/unknown preset 'foo'; known: qwen, minimax, vllm, ollama, lmstudio, openrouter/);
  });

  it("refuses SpreadsheetBench's multi mode on an agent-CLI target, naming env.mode; single mode is fine", () => {
    const env = { CODEX_EXEC_PATH: "tests/fixtures/exec-bin/codex" };
    const ssb = (mode: string) =>
      loadRunConfig("configs/spreadsheetbench/sample.yaml", [
        "model.target_backend=codex-exec",
        "model.target=gpt-5.5",
        `env.mode=${mode}`,
      ]).config;
    let err: unknown;
    try {
      prepareRun({ config: ssb("multi"), rootDir: process.cwd(), trust: "local", env });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      field: "env.mode",
      message: "env.mode: SpreadsheetBench runs the codex-exec target in single mode only; set env.mode: single",
    });
    expect(prepareRun({ config: ssb("single"), rootDir: process.cwd(), trust: "local", env }).target.backend).toBe(
      "codex-exec",
    );
  });

  it("refuses SpreadsheetBench without bubblewrap before any model call, unless env.allow_unsandboxed says so (then warns)", () => {
    const config = loadRunConfig("configs/spreadsheetbench/sample.yaml", []).config;
    const env = { PATH: pathWithoutBwrap() };
    expect(() => prepareRun({ config, rootDir: process.cwd(), trust: "local", env })).toThrow(
      /set env.allow_unsandboxed: true/,
    );
    const allowed = loadRunConfig("configs/spreadsheetbench/sample.yaml", ["env.allow_unsandboxed=true"]).config;
    expect(prepareRun({ config: allowed, rootDir: process.cwd(), trust: "local", env }).warnings).toEqual([
      "SpreadsheetBench scripts run WITHOUT a sandbox (env.allow_unsandboxed: true; bubblewrap (bwrap) is not installed or not on PATH): model-written code can read your files and reach the network",
    ]);
    // With bubblewrap available the option changes nothing and nobody is warned.
    expect(
      prepareRun({ config: allowed, rootDir: process.cwd(), trust: "local", env: { PATH: TEST_VARS.PATH } }).warnings,
    ).toEqual([]);
  });

  it("builds both clients on one policy: one budget, usage per role", async () => {
    const run = prepareRun({
      config: load(["model.backend=sim", "budget.max_calls=1"]),
      rootDir: process.cwd(),
      trust: "local",
    });
    await run.target.complete({
      role: "target",
      stage: "rollout",
      system: "s",
      messages: [{ role: "user", content: "u" }],
      maxTokens: 10,
    });
    const err = await run.optimizer
      .complete({
        role: "optimizer",
        stage: "analyst",
        system: "s",
        messages: [{ role: "user", content: "u" }],
        maxTokens: 10,
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ stopRun: "pause", message: "budget exhausted: 1 of 1 calls" });
    expect(run.policy.stats().target?.total).toMatchObject({ calls: 1, costUsd: 0 });
  });

  it("a resumed run keeps counting from what it already spent", () => {
    const run = prepareRun({
      config: load(["model.backend=sim", "budget.max_calls=5"]),
      rootDir: process.cwd(),
      trust: "local",
      policy: { spent: { usd: 0, calls: 5 } },
    });
    return expect(
      run.target.complete({ role: "target", stage: "rollout", system: "s", messages: [], maxTokens: 1 }),
    ).rejects.toThrow("budget exhausted: 5 of 5 calls");
  });
});

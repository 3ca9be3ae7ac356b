import { chmodSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PromptRegistry } from "../prompts";
import { removeTempDirs, sandbox, tempDir, testConfig, writeText } from "../test-helpers";
import { buildSleepBackend, resolveSleepBackend } from "./build";
import { MockBackend } from "./mock";
import { ModelBackend } from "./model";

afterAll(removeTempDirs);

const build = (over: Record<string, unknown>, env: Record<string, string | undefined> = {}) => {
  const s = sandbox();
  return buildSleepBackend(testConfig(s, over), {
    env,
    prompts: new PromptRegistry(null),
    handoffDir: join(s.root, "handoff"),
  });
};

describe("sleep backends", () => {
  it("maps the original's names onto ours", () => {
    expect(["mock", "sim"].map((n) => resolveSleepBackend(n, "backend"))).toEqual(["mock", "mock"]);
    expect(
      ["claude", "claude_code", "codex", "codex_cli", "azure_openai", "aoai", "compat", "session"].map((n) =>
        resolveSleepBackend(n, "backend"),
      ),
    ).toEqual([
      "claude-code-exec",
      "claude-code-exec",
      "codex-exec",
      "codex-exec",
      "azure-openai",
      "azure-openai",
      "openai-compatible",
      "handoff",
    ]);
  });

  it("refuses an unknown name (the original silently used the mock), naming the key", () => {
    expect(() => resolveSleepBackend("gpt4all", "backend")).toThrow(
      "backend: unknown backend 'gpt4all'; known: mock, claude, codex, copilot, cursor, pi, opencode, openai, anthropic, openai-compatible, azure_openai, handoff",
    );
    expect(() => resolveSleepBackend("cursr", "target_backend")).toThrow(/^target_backend: unknown backend 'cursr'/);
  });

  it("builds the mock, the handoff backend, and refuses to mix the mock with a real model", () => {
    expect(build({}).backend).toBeInstanceOf(MockBackend);
    const h = build({ backend: "handoff" });
    expect(h.backend.name).toBe("handoff");
    expect(h.handoff).not.toBeNull();
    expect(() => build({ backend: "mock", optimizer_backend: "openai" }, { OPENAI_API_KEY: "k" })).toThrow(
      /cannot be combined/,
    );
  });

  it("a missing key or CLI is a clear error naming what to set", () => {
    expect(() => build({ backend: "openai" })).toThrow(/OPENAI_API_KEY/);
    expect(() => build({ backend: "claude" }, { PATH: tempDir() })).toThrow(/'claude' was not found on PATH/);
    expect(() => build({ backend: "openai-compatible" })).toThrow(
      /set the model name your OpenAI-compatible server uses/,
    );
  });

  it("builds API and CLI clients, and a dual setup from the optimizer_/target_ keys", () => {
    const bin = writeText(join(tempDir(), "claude"), "#!/bin/sh\necho hi\n");
    chmodSync(bin, 0o755);
    const single = build({ backend: "openai", model: "gpt-x" }, { OPENAI_API_KEY: "sk-test" }).backend;
    expect(single).toBeInstanceOf(ModelBackend);
    expect(single.key()).toBe("openai::gpt-x");
    const dual = build(
      { backend: "claude", optimizer_backend: "anthropic", optimizer_model: "claude-opus" },
      { PATH: join(bin, ".."), ANTHROPIC_API_KEY: "k" },
    ).backend;
    expect(dual.name).toBe("target=claude-code-exec/optimizer=anthropic");
    expect(dual.key()).toBe("optimizer=anthropic::claude-opus;target=claude-code-exec::default");
  });
});

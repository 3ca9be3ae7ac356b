import { describe, expect, it } from "vitest";
import { listBackends, listCompatiblePresets, SIM_NOTE } from "./catalog";

const byName = (env: Record<string, unknown>) => Object.fromEntries(listBackends(env).map((b) => [b.name, b]));

describe("backend catalog", () => {
  it("with no credentials only the simulated model is available, and each backend says what to set", () => {
    const b = byName({});
    expect(b.sim).toMatchObject({ available: true, note: SIM_NOTE });
    expect(b.openai).toMatchObject({ available: false, note: "set OPENAI_API_KEY" });
    expect(b["azure-openai"]).toMatchObject({
      available: false,
      note: "set AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY (or AZURE_OPENAI_AD_TOKEN)",
    });
    expect(b.anthropic).toMatchObject({ available: false, note: "set ANTHROPIC_API_KEY" });
    expect(b["openai-compatible"]!.available).toBe(false);
    expect(b["openai-compatible"]!.note).toMatch(
      /OPENAI_COMPATIBLE_BASE_URL, or OPENAI_COMPATIBLE_PRESET \(qwen, minimax, vllm, ollama, lmstudio, openrouter\)/,
    );
    expect(b["codex-exec"]).toMatchObject({ available: false, roles: ["target"] });
  });

  it("credentials make backends available (shared variable, or both role variants)", () => {
    const b = byName({
      OPENAI_API_KEY: "k",
      AZURE_OPENAI_ENDPOINT: "https://x",
      AZURE_OPENAI_AD_TOKEN: "t",
      OPTIMIZER_ANTHROPIC_API_KEY: "a",
    });
    expect(b.openai).toMatchObject({ available: true, note: "credentials found" });
    expect(b["azure-openai"]!.available).toBe(true);
    expect(b.anthropic!.available).toBe(false); // the target would still lack a key
    expect(byName({ OPTIMIZER_ANTHROPIC_API_KEY: "a", TARGET_ANTHROPIC_API_KEY: "b" }).anthropic!.available).toBe(true);
  });

  it("openai-compatible: a base URL, a keyless preset, or a keyed preset with its key", () => {
    expect(byName({ OPENAI_COMPATIBLE_BASE_URL: "http://gpu/v1" })["openai-compatible"]).toMatchObject({
      available: true,
      note: "server configured",
    });
    expect(byName({ OPENAI_COMPATIBLE_PRESET: "ollama" })["openai-compatible"]!.available).toBe(true);
    expect(byName({ OPENAI_COMPATIBLE_PRESET: "qwen" })["openai-compatible"]).toMatchObject({
      available: false,
      note: "set DASHSCOPE_API_KEY",
    });
    expect(byName({ OPENAI_COMPATIBLE_PRESET: "qwen", DASHSCOPE_API_KEY: "d" })["openai-compatible"]!.available).toBe(
      true,
    );
    expect(byName({ OPENAI_COMPATIBLE_PRESET: "groq" })["openai-compatible"]!.note).toMatch(
      /unknown preset 'groq'; known: qwen/,
    );
  });

  it("lists the presets with their base URL, key variable and model naming", () => {
    const presets = listCompatiblePresets({ OPENROUTER_API_KEY: "x" });
    expect(presets.map((p) => p.name)).toEqual(["qwen", "minimax", "vllm", "ollama", "lmstudio", "openrouter"]);
    expect(presets.find((p) => p.name === "openrouter")).toMatchObject({
      available: true,
      keyVar: "OPENROUTER_API_KEY",
      baseURL: "https://openrouter.ai/api/v1",
    });
    expect(presets.find((p) => p.name === "vllm")).toMatchObject({
      available: true,
      keyVar: null,
      note: "local server, no key",
    });
    expect(presets.find((p) => p.name === "minimax")).toMatchObject({ available: false, note: "set MINIMAX_API_KEY" });
  });
});

describe("exec backends in the catalog", () => {
  it("are available when their CLI is found", () => {
    const fakeBins = new URL("../../tests/fixtures/exec-bin", import.meta.url).pathname;
    expect(byName({ PATH: fakeBins })["codex-exec"]).toMatchObject({ available: true, roles: ["target"] });
    expect(
      byName({ PATH: "/nowhere", CLAUDE_CODE_EXEC_PATH: `${fakeBins}/claude` })["claude-code-exec"]!.available,
    ).toBe(true);
    const missing = byName({ PATH: "/nowhere" })["codex-exec"]!;
    expect(missing.available).toBe(false);
    expect(missing.note).toMatch(/npm i -g @openai\/codex/);
  });
});

import { describe, expect, it } from "vitest";
import { anthropicSettings } from "./anthropic";
import { azureSettings } from "./azure-openai";
import { openaiSettings } from "./openai";
import { compatibleSettings } from "./openai-compatible";
import { transportOptionsOf } from "./settings";
import { config } from "./test-helpers";

const model = (m: Record<string, unknown> = {}) => config({ model: m }).model;

describe("openai settings", () => {
  it("config key > role env var > shared env var > default", () => {
    const env = {
      OPENAI_API_KEY: "shared",
      TARGET_OPENAI_API_KEY: "target-key",
      OPENAI_BASE_URL: "http://env/v1",
      TARGET_OPENAI_BASE_URL: "http://role-env/v1",
    };
    expect(openaiSettings(model(), "optimizer", env)).toMatchObject({
      apiKey: "shared",
      keyVar: "OPENAI_API_KEY",
      baseURL: "http://env/v1",
      style: "auto",
    });
    expect(openaiSettings(model(), "target", env)).toMatchObject({
      apiKey: "target-key",
      keyVar: "TARGET_OPENAI_API_KEY",
      baseURL: "http://role-env/v1",
    });
    const m = model({ openai_base_url: "https://shared.cfg/v1", target_openai_base_url: "https://target.cfg/v1/" });
    expect(openaiSettings(m, "target", env).baseURL).toBe("https://target.cfg/v1");
    expect(openaiSettings(m, "optimizer", env).baseURL).toBe("https://shared.cfg/v1");
    expect(openaiSettings(model(), "optimizer", { OPENAI_API_KEY: "k" }).baseURL).toBe("https://api.openai.com/v1");
  });

  it("a missing key is refused naming the variable", () => {
    expect(() => openaiSettings(model(), "target", { OPENAI_API_KEY: "  " })).toThrow(
      "model.target_backend: the target uses backend 'openai', which needs an API key: set OPENAI_API_KEY (or TARGET_OPENAI_API_KEY for the target only)",
    );
  });

  it("a base URL that is not http(s) is refused", () => {
    expect(() => openaiSettings(model({ openai_base_url: "ftp://x/v1" }), "target", { OPENAI_API_KEY: "k" })).toThrow(
      "model.openai_base_url: 'ftp://x/v1' must be an http:// or https:// URL",
    );
    expect(() => openaiSettings(model(), "target", { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "localhost:8000" })).toThrow(
      /OPENAI_BASE_URL: 'localhost:8000'/,
    );
    expect(() => openaiSettings(model({ openai_api_style: "grpc" }), "target", { OPENAI_API_KEY: "k" })).toThrow(
      "model.openai_api_style: expected one of auto, chat, responses, got 'grpc'",
    );
  });
});

describe("azure-openai settings", () => {
  const env = { AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com/", AZURE_OPENAI_API_KEY: "k" };

  it("endpoint, api version and deployment with their fallbacks", () => {
    expect(azureSettings(model(), "optimizer", env, "gpt-5.5")).toMatchObject({
      endpoint: "https://res.openai.azure.com",
      apiVersion: "2024-12-01-preview",
      deployment: "gpt-5.5",
      auth: { kind: "key", source: "AZURE_OPENAI_API_KEY" },
    });
    const roleEnv = {
      ...env,
      AZURE_OPENAI_TARGET_ENDPOINT: "https://t.example",
      TARGET_DEPLOYMENT: "dep-t",
      OPENAI_API_VERSION: "2025-01-01",
    };
    expect(azureSettings(model(), "target", roleEnv, "m")).toMatchObject({
      endpoint: "https://t.example",
      deployment: "dep-t",
      apiVersion: "2025-01-01",
    });
    const cfg = model({ target_azure_openai_deployment: "cfg-dep", azure_openai_api_version: "2024-10-21" });
    expect(azureSettings(cfg, "target", roleEnv, "m")).toMatchObject({
      deployment: "cfg-dep",
      apiVersion: "2024-10-21",
    });
  });

  it("an Entra ID token when there is no key; neither → refused naming both", () => {
    const tokenEnv = { AZURE_OPENAI_ENDPOINT: "https://r.example", AZURE_OPENAI_AD_TOKEN: "tok" };
    expect(azureSettings(model(), "target", tokenEnv, "m").auth).toEqual({
      kind: "token",
      value: "tok",
      source: "AZURE_OPENAI_AD_TOKEN",
    });
    expect(() => azureSettings(model(), "target", { AZURE_OPENAI_ENDPOINT: "https://r.example" }, "m")).toThrow(
      /needs an API key \(AZURE_OPENAI_API_KEY\) or an Entra ID token: set AZURE_OPENAI_AD_TOKEN/,
    );
    expect(() => azureSettings(model(), "target", { AZURE_OPENAI_API_KEY: "k" }, "m")).toThrow(
      /set AZURE_OPENAI_ENDPOINT/,
    );
  });
});

describe("anthropic settings", () => {
  it("key, base URL and the thinking budget", () => {
    const s = anthropicSettings(model({ anthropic_thinking_budget: 2048 }), "optimizer", {
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: "http://local:1",
    });
    expect(s).toMatchObject({
      apiKey: "k",
      baseURL: "http://local:1",
      thinking: { type: "enabled", budget_tokens: 2048 },
    });
    expect(
      anthropicSettings(model({ optimizer_anthropic_thinking_budget: "adaptive" }), "optimizer", {
        ANTHROPIC_API_KEY: "k",
      }).thinking,
    ).toEqual({ type: "adaptive" });
    expect(
      anthropicSettings(model({ anthropic_thinking_budget: 0 }), "target", { ANTHROPIC_API_KEY: "k" }),
    ).toMatchObject({ baseURL: "https://api.anthropic.com", thinking: null });
    expect(() =>
      anthropicSettings(model({ anthropic_thinking_budget: 100 }), "target", { ANTHROPIC_API_KEY: "k" }),
    ).toThrow(/model.anthropic_thinking_budget: expected 0 \(off\), 'adaptive' or an integer ≥ 1024/);
    expect(() => anthropicSettings(model(), "target", {})).toThrow(
      /set ANTHROPIC_API_KEY \(or TARGET_ANTHROPIC_API_KEY for the target only\)/,
    );
  });
});

describe("openai-compatible settings", () => {
  it("a preset sets the base URL, the key variable and the accepted parameters", () => {
    const s = compatibleSettings(model({ compatible_preset: "openrouter" }), "target", { OPENROUTER_API_KEY: "or" });
    expect(s).toMatchObject({
      baseURL: "https://openrouter.ai/api/v1",
      apiKey: "or",
      keyVar: "OPENROUTER_API_KEY",
      params: { effort: "reasoning_object" },
    });
    expect(compatibleSettings(model({ compatible_preset: "ollama" }), "target", {})).toMatchObject({
      baseURL: "http://localhost:11434/v1",
      apiKey: null,
    });
  });

  it("the qwen / minimax aliases imply their preset", () => {
    expect(compatibleSettings(model(), "target", { DASHSCOPE_API_KEY: "d" }, "qwen_chat").baseURL).toBe(
      "https://dashscope.aliyuncs.com/compatible-mode/v1",
    );
    expect(() => compatibleSettings(model(), "target", {}, "minimax")).toThrow(
      /preset 'minimax', which needs an API key: set MINIMAX_API_KEY/,
    );
  });

  it("never sends the generic key to a vendor reached only through a backend alias (a request may name one)", () => {
    const generic = { OPENAI_COMPATIBLE_API_KEY: "generic-key" };
    expect(() => compatibleSettings(model(), "target", generic, "qwen")).toThrow(
      /set DASHSCOPE_API_KEY \(TARGET_DASHSCOPE_API_KEY for the target only\)/,
    );
    expect(compatibleSettings(model(), "target", { ...generic, DASHSCOPE_API_KEY: "d" }, "qwen").apiKey).toBe("d");
    // The operator's own choices still use it: a preset they set, or their server's URL.
    expect(compatibleSettings(model(), "target", { ...generic, OPENAI_COMPATIBLE_PRESET: "qwen" }, "qwen").apiKey).toBe(
      "generic-key",
    );
    expect(
      compatibleSettings(model(), "target", { ...generic, OPENAI_COMPATIBLE_BASE_URL: "http://gpu/v1" }, "qwen"),
    ).toMatchObject({ apiKey: "generic-key", baseURL: "http://gpu/v1" });
  });

  it("base URL override, unknown presets listing the known ones, a missing server", () => {
    const s = compatibleSettings(model({ compatible_preset: "vllm" }), "optimizer", {
      OPENAI_COMPATIBLE_BASE_URL: "http://gpu:9000/v1",
    });
    expect(s.baseURL).toBe("http://gpu:9000/v1");
    expect(() => compatibleSettings(model({ compatible_preset: "groq" }), "target", {})).toThrow(
      "model.compatible_preset: unknown preset 'groq'; known: qwen, minimax, vllm, ollama, lmstudio, openrouter (or custom)",
    );
    expect(() => compatibleSettings(model(), "target", {})).toThrow(
      /needs a server: set model.compatible_base_url or OPENAI_COMPATIBLE_BASE_URL/,
    );
    expect(() => compatibleSettings(model({ compatible_base_url: "file:///etc" }), "target", {})).toThrow(
      /must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(
      compatibleSettings(model({ compatible_base_url: "http://x/v1", compatible_temperature: 0.3 }), "target", {})
        .temperature,
    ).toBe(0.3);
  });
});

describe("transport options", () => {
  it("defaults, values from config, and refusals naming the key", () => {
    expect(transportOptionsOf(model())).toMatchObject({
      max_concurrency: 16,
      timeout_seconds: 300,
      max_retries: 5,
      cache: false,
      price_table: {},
    });
    expect(transportOptionsOf(model({ max_concurrency: "4", cache: "true", max_retries: 0 }))).toMatchObject({
      max_concurrency: 4,
      cache: true,
      max_retries: 0,
    });
    expect(() => transportOptionsOf(model({ max_concurrency: 0 }))).toThrow(/^model.max_concurrency:/);
    expect(() =>
      transportOptionsOf(model({ price_table: { "gpt-x": { inputPerMTok: 1, outputPerMTok: 2 } } })),
    ).toThrow(/model.price_table.gpt-x: keys are backend:model/);
    expect(() =>
      transportOptionsOf(model({ price_table: { "openai:x": { inputPerMTok: -1, outputPerMTok: 2 } } })),
    ).toThrow(/^model.price_table.openai:x.inputPerMTok/);
  });
});

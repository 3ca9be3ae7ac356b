import { describe, expect, it } from "vitest";
import type { CompletionRequest } from "../engine/ports";
import type { ExecCompletionResult } from "./exec";
import { FAKE_CODEX, targetRequest } from "./exec/test-helpers";
import { RunPolicy } from "./policy/run-policy";
import { normaliseBackend } from "./names";
import { createModelClient } from "./registry";
import { chatReply, config, useStub } from "./test-helpers";

const req: CompletionRequest = {
  role: "target",
  stage: "rollout",
  system: "sys",
  messages: [{ role: "user", content: "q" }],
  maxTokens: 64,
  reasoningEffort: "high",
};
const anthropicReply = {
  body: {
    id: "m1",
    type: "message",
    role: "assistant",
    model: "c",
    content: [{ type: "text", text: "claude says" }],
    stop_reason: "end_turn",
    usage: { input_tokens: 7, output_tokens: 3 },
  },
};
const responsesReply = {
  body: {
    id: "r1",
    object: "response",
    status: "completed",
    output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "via responses" }] }],
    usage: { input_tokens: 4, output_tokens: 2 },
  },
};

describe("registry", () => {
  it("an unknown backend is refused listing the known ones", () => {
    expect(() => normaliseBackend("gemini", "model.backend")).toThrow(
      "model.backend: unknown backend 'gemini'; known: sim, openai, azure-openai, anthropic, openai-compatible, codex-exec, claude-code-exec",
    );
  });

  it("sim goes through the policy layer: usage per stage, free", async () => {
    const cfg = config({ model: { backend: "sim" } });
    const c = createModelClient("target", cfg, { simKnowledge: null });
    await c.complete(req);
    expect(c.stats!().byStage.rollout).toMatchObject({ calls: 1, costUsd: 0 });
  });

  it("a USD budget with a model whose price is unknown is refused at creation", () => {
    const cfg = config({
      model: { backend: "openai-compatible", target: "llama3", compatible_preset: "ollama" },
      budget: { max_usd: 5 },
    });
    expect(() => createModelClient("target", cfg, { simKnowledge: null, env: {} })).toThrow(
      /budget.max_usd: no price is known for openai-compatible:llama3/,
    );
  });
});

describe("providers through their SDKs", () => {
  const stub = useStub();

  it("openai: Chat Completions with the key, reasoning_effort for a reasoning model, SDK retries off", async () => {
    const s = await stub([chatReply("hello")]);
    const cfg = config({ model: { backend: "openai", target: "gpt-5.5", openai_base_url: `${s.url}/v1` } });
    const c = createModelClient("target", cfg, { simKnowledge: null, env: { OPENAI_API_KEY: "sk-1" } });
    expect(await c.complete(req)).toMatchObject({ text: "hello", usage: { promptTokens: 10, completionTokens: 5 } });
    expect(s.seen[0]).toMatchObject({
      path: "/v1/chat/completions",
      body: { model: "gpt-5.5", max_completion_tokens: 64, reasoning_effort: "high" },
    });
    expect(s.seen[0]!.headers.authorization).toBe("Bearer sk-1");
    expect(c.stats!().byStage.rollout!.costUsd).toBeCloseTo((10 * 5 + 5 * 30) / 1e6);
  });

  it("openai: the Responses API when asked", async () => {
    const s = await stub([responsesReply]);
    const cfg = config({
      model: { backend: "openai", target: "gpt-5.5", openai_base_url: `${s.url}/v1`, openai_api_style: "responses" },
    });
    const c = createModelClient("target", cfg, { simKnowledge: null, env: { OPENAI_API_KEY: "k" } });
    expect((await c.complete(req)).text).toBe("via responses");
    expect(s.seen[0]).toMatchObject({
      path: "/v1/responses",
      body: { instructions: "sys", max_output_tokens: 64, reasoning: { effort: "high" } },
    });
  });

  it("azure-openai: deployment path, api-version, api-key header; or an Entra ID bearer token", async () => {
    const s = await stub([chatReply("azure")]);
    const cfg = config({ model: { backend: "azure-openai", target: "gpt-4o", azure_openai_deployment: "dep1" } });
    const key = createModelClient("target", cfg, {
      simKnowledge: null,
      env: { AZURE_OPENAI_ENDPOINT: s.url, AZURE_OPENAI_API_KEY: "az" },
    });
    expect((await key.complete(req)).text).toBe("azure");
    expect(s.seen[0]!.path).toBe("/openai/deployments/dep1/chat/completions?api-version=2024-12-01-preview");
    expect(s.seen[0]!.headers["api-key"]).toBe("az");
    expect(s.seen[0]!.body).not.toHaveProperty("reasoning_effort"); // gpt-4o takes none
    const token = createModelClient("target", cfg, {
      simKnowledge: null,
      env: { AZURE_OPENAI_ENDPOINT: s.url, AZURE_OPENAI_AD_TOKEN: "tok" },
    });
    await token.complete(req);
    expect(s.seen[1]!.headers.authorization).toBe("Bearer tok");
    expect(s.seen[1]!.headers["api-key"]).toBeUndefined();
  });

  it("anthropic: Messages API with max_tokens raised by the thinking budget", async () => {
    const s = await stub([anthropicReply]);
    const cfg = config({
      model: {
        backend: "anthropic",
        target: "claude-sonnet-4-6",
        anthropic_base_url: s.url,
        anthropic_thinking_budget: 1024,
      },
    });
    const c = createModelClient("target", cfg, { simKnowledge: null, env: { ANTHROPIC_API_KEY: "ak" } });
    expect(await c.complete(req)).toMatchObject({
      text: "claude says",
      usage: { promptTokens: 7, completionTokens: 3 },
    });
    expect(s.seen[0]).toMatchObject({
      path: "/v1/messages",
      body: {
        model: "claude-sonnet-4-6",
        max_tokens: 1088,
        system: "sys",
        thinking: { type: "enabled", budget_tokens: 1024 },
      },
    });
  });

  it("openai-compatible: the preset's parameters only, at the overridden base URL", async () => {
    const s = await stub([chatReply("routed")]);
    const cfg = config({
      model: {
        backend: "openai-compatible",
        target: "openai/gpt-5",
        compatible_preset: "openrouter",
        compatible_base_url: `${s.url}/api/v1`,
      },
    });
    const c = createModelClient("target", cfg, { simKnowledge: null, env: { OPENROUTER_API_KEY: "or" } });
    expect((await c.complete(req)).text).toBe("routed");
    expect(s.seen[0]!.body).toEqual({
      model: "openai/gpt-5",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "q" },
      ],
      max_tokens: 64,
      reasoning: { effort: "high" },
    });
  });

  it("openai-compatible caps requests at the original's 8000 output tokens by default", async () => {
    const s = await stub([chatReply("a"), chatReply("b"), chatReply("c")]);
    const base = {
      backend: "openai-compatible",
      target: "m",
      compatible_preset: "vllm",
      compatible_base_url: `${s.url}/v1`,
    };
    await createModelClient("target", config({ model: base }), { simKnowledge: null, env: {} }).complete({
      ...req,
      maxTokens: 16384,
    });
    expect(s.seen[0]!.body).toMatchObject({ max_tokens: 8000 });
    // model.<role>_max_tokens wins over the default; a smaller request is sent as asked.
    await createModelClient("target", config({ model: { ...base, target_max_tokens: 4096 } }), {
      simKnowledge: null,
      env: {},
    }).complete({ ...req, maxTokens: 64000 });
    expect(s.seen[1]!.body).toMatchObject({ max_tokens: 4096 });
    await createModelClient("target", config({ model: base }), {
      simKnowledge: null,
      env: { TARGET_OPENAI_COMPATIBLE_MAX_TOKENS: "2000" },
    }).complete(req);
    expect(s.seen[2]!.body).toMatchObject({ max_tokens: 64 });
  });

  it("model.max_tokens caps any backend and is validated", async () => {
    const s = await stub([chatReply("x")]);
    const cfg = config({
      model: { backend: "openai", target: "gpt-4o", openai_base_url: `${s.url}/v1`, max_tokens: 32 },
    });
    await createModelClient("target", cfg, { simKnowledge: null, env: { OPENAI_API_KEY: "k" } }).complete(req);
    expect(s.seen[0]!.body).toMatchObject({ max_completion_tokens: 32 });
    const bad = config({ model: { backend: "openai", target: "gpt-4o", optimizer_max_tokens: "lots" } });
    expect(() => createModelClient("optimizer", bad, { simKnowledge: null, env: { OPENAI_API_KEY: "k" } })).toThrow(
      'model.optimizer_max_tokens: expected a whole number of tokens of at least 1, got "lots"',
    );
  });

  it("both roles share one budget", async () => {
    const s = await stub([chatReply("x", { prompt_tokens: 100_000, completion_tokens: 0 })]);
    const cfg = config({
      model: { backend: "openai", optimizer: "gpt-4o", target: "gpt-4o", openai_base_url: `${s.url}/v1` },
      budget: { max_usd: 0.5 },
    });
    const run = new RunPolicy(cfg);
    const ctx = { simKnowledge: null, env: { OPENAI_API_KEY: "k" }, run };
    const opt = createModelClient("optimizer", cfg, ctx);
    const tgt = createModelClient("target", cfg, ctx);
    await opt.complete({ ...req, role: "optimizer", stage: "analyst" });
    await tgt.complete(req);
    expect(run.budget.snapshot()).toMatchObject({ calls: 2, spentUsd: 0.5 });
    await expect(tgt.complete(req)).rejects.toMatchObject({ stopRun: "pause" });
    expect(s.seen).toHaveLength(2);
    expect(Object.keys(run.stats())).toEqual(["optimizer", "target"]);
  });
});

describe("exec target backends", () => {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };

  it("codex-exec runs the CLI through the policy layer: calls counted, trace passed through", async () => {
    const cfg = config({ model: { backend: "codex-exec", target: "gpt-fake", codex_exec_path: FAKE_CODEX } });
    const c = createModelClient("target", cfg, { simKnowledge: null, env });
    const res = (await c.complete(targetRequest())) as ExecCompletionResult;
    expect(res.text).toContain("fake answer");
    expect(res.trace).toBeTruthy();
    expect(c).toMatchObject({ backend: "codex-exec", model: "gpt-fake" });
    expect(c.stats!().byStage.rollout).toMatchObject({ calls: 1, retries: 0 });
  });

  it("a CLI that cannot be found refuses the run at creation", () => {
    const cfg = config({ model: { backend: "claude_code_exec", claude_code_exec_path: "/nowhere/claude" } });
    expect(() => createModelClient("target", cfg, { simKnowledge: null, env })).toThrow(
      /model.target_backend: claude-code-exec: '\/nowhere\/claude' is not an executable file/,
    );
  });
});

describe("default models", () => {
  it("a role left on the OpenAI default gets its backend's default model, or a clear error", async () => {
    const { resolveModel } = await import("./names");
    const { RunConfigSchema } = await import("../contracts/run-config");
    const cfg = (model: Record<string, unknown>) => RunConfigSchema.parse({ model });
    expect(resolveModel("target", cfg({ backend: "anthropic" }), "anthropic")).toBe("claude-sonnet-4-6");
    expect(resolveModel("target", cfg({ backend: "anthropic", target: "claude-opus-4-6" }), "anthropic")).toBe(
      "claude-opus-4-6",
    );
    expect(resolveModel("optimizer", cfg({ backend: "openai" }), "openai")).toBe("gpt-5.5");
    expect(() => resolveModel("target", cfg({ backend: "openai-compatible" }), "openai-compatible")).toThrow(
      "model.target: 'gpt-5.5' is an OpenAI model name",
    );
  });
});

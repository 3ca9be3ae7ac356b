/**
 * The `anthropic` backend: the Anthropic Messages API through @anthropic-ai/sdk. `max_tokens` is the
 * engine's limit; optional extended thinking: `anthropic_thinking_budget: N` (≥ 1024) sends
 * `thinking: {type: "enabled", budget_tokens: N}` and raises `max_tokens` by N so the answer keeps its
 * share; `anthropic_thinking_budget: adaptive` sends `{type: "adaptive"}`. Unset or 0: no thinking.
 *
 * Settings (config key > role env var > shared env var > default):
 *   key       OPTIMIZER_ANTHROPIC_API_KEY / TARGET_ANTHROPIC_API_KEY > ANTHROPIC_API_KEY (required)
 *   base URL  model.[<role>_]anthropic_base_url > <ROLE>_ANTHROPIC_BASE_URL > ANTHROPIC_BASE_URL > https://api.anthropic.com
 *   thinking  model.[<role>_]anthropic_thinking_budget
 */
import Anthropic from "@anthropic-ai/sdk";
import type { CompletionRequest, Role } from "../../engine/ports";
import { AppError } from "../../errors";
import { BackendError } from "../errors";
import type { Transport } from "../policy/client";
import { sdkOptions, type ProviderFactory } from "../provider";
import { keyIdOf } from "../policy/rate-limit";
import { checkHttpUrl, requireSecret, roleEnvNames, stringSetting, type EnvVars, type ModelSection } from "../settings";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

export type Thinking = { type: "enabled"; budget_tokens: number } | { type: "adaptive" } | null;

export interface AnthropicSettings {
  apiKey: string;
  keyVar: string;
  baseURL: string;
  thinking: Thinking;
}

function thinkingOf(model: ModelSection, role: Role, env: EnvVars): Thinking {
  const found = stringSetting(model, role, "anthropic_thinking_budget", [], env);
  if (!found || found.value === "0" || found.value.toLowerCase() === "off") return null;
  if (found.value.toLowerCase() === "adaptive") return { type: "adaptive" };
  const n = Number(found.value);
  if (!Number.isInteger(n) || n < 1024) {
    throw new AppError(
      "INVALID_REQUEST",
      `${found.source}: expected 0 (off), 'adaptive' or an integer ≥ 1024, got '${found.value}'`,
      { field: found.source },
    );
  }
  return { type: "enabled", budget_tokens: n };
}

export function anthropicSettings(model: ModelSection, role: Role, env: EnvVars): AnthropicSettings {
  const key = requireSecret(env, roleEnvNames(role, "ANTHROPIC_API_KEY"), { role, backend: "anthropic" });
  const base = stringSetting(model, role, "anthropic_base_url", roleEnvNames(role, "ANTHROPIC_BASE_URL"), env);
  return {
    apiKey: key.value,
    keyVar: key.source,
    baseURL: base ? checkHttpUrl(base.value, base.source) : ANTHROPIC_DEFAULT_BASE_URL,
    thinking: thinkingOf(model, role, env),
  };
}

type Block = Anthropic.Messages.ContentBlockParam;

/** The Messages API body for `req`. */
export function anthropicBody(
  req: CompletionRequest,
  model: string,
  thinking: Thinking,
): Anthropic.Messages.MessageCreateParamsNonStreaming {
  const messages = req.messages.map((m): Anthropic.Messages.MessageParam => {
    if (typeof m.content === "string") return { role: m.role, content: m.content };
    const content = m.content.map((p): Block =>
      p.type === "text"
        ? { type: "text", text: p.text }
        : { type: "image", source: { type: "base64", media_type: p.mediaType as "image/png", data: p.dataBase64 } },
    );
    return { role: m.role, content };
  });
  const extra = thinking?.type === "enabled" ? thinking.budget_tokens : 0;
  return {
    model,
    max_tokens: req.maxTokens + extra,
    ...(req.system ? { system: req.system } : {}),
    messages,
    ...(thinking ? { thinking } : {}),
  };
}

function anthropicTransport(client: Anthropic, model: string, thinking: Thinking): Transport {
  return {
    extraOutputTokens: thinking?.type === "enabled" ? thinking.budget_tokens : 0,
    params: () => ({ thinking }),
    async send(req, signal) {
      const res = await client.messages.create(anthropicBody(req, model, thinking), { signal });
      const blocks = Array.isArray(res?.content) ? res.content : [];
      const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
      if (!text && res.stop_reason === "max_tokens") {
        throw new BackendError({
          kind: "fatal",
          backend: "anthropic",
          message: `anthropic: the answer was cut off at max_tokens before any text (raise the max tokens or the thinking budget)`,
        });
      }
      if (!res?.usage)
        throw new BackendError({
          kind: "transient",
          backend: "anthropic",
          message: "anthropic: malformed response (no usage)",
        });
      return {
        text,
        truncated: res.stop_reason === "max_tokens",
        usage: { promptTokens: res.usage.input_tokens ?? 0, completionTokens: res.usage.output_tokens ?? 0 },
      };
    },
  };
}

export const createAnthropicProvider: ProviderFactory = (a) => {
  const s = anthropicSettings(a.config.model, a.role, a.env);
  // An explicit timeout also stops the SDK from refusing large non-streaming max_tokens up front.
  const client = new Anthropic({ apiKey: s.apiKey, baseURL: s.baseURL, ...sdkOptions(a.transport) });
  return {
    transport: anthropicTransport(client, a.model, s.thinking),
    endpoint: s.baseURL,
    authHint: `check ${s.keyVar}`,
    keyId: keyIdOf(s.apiKey),
  };
};

/**
 * Chat Completions through the openai SDK, shared by the openai, azure-openai and openai-compatible
 * backends. Each backend states which optional parameters its server accepts (the token-limit field,
 * reasoning effort and how it is spelled, temperature); the body carries those and nothing else, so a
 * server is never sent a parameter it rejects.
 */
import type OpenAI from "openai";
import type { CompletionRequest } from "../../engine/ports";
import { BackendError } from "../errors";
import { estimatePromptTokens, type Transport, type TransportAnswer } from "../policy/client";
import { toChatMessages } from "./messages";

export interface ChatParamPolicy {
  /** Which field carries the output limit. */
  tokenField: "max_completion_tokens" | "max_tokens";
  /** How a reasoning effort is sent: top-level `reasoning_effort`, OpenRouter's `reasoning: {effort}`, or not at all. */
  effort: "reasoning_effort" | "reasoning_object" | "none";
  /** Whether `temperature` may be sent. */
  temperature: boolean;
}

export interface ChatTransportOptions {
  client: OpenAI;
  backend: string;
  /** The `model` field (for Azure: the deployment). */
  model: string;
  policy: ChatParamPolicy;
  /** Sent only when the policy allows temperature and this is set. */
  temperature?: number | null;
  /** Efforts the model accepts; others (and "", "none" when not listed) are not sent. */
  efforts?: readonly string[];
}

/** The optional parameters actually sent for `req` under the policy (also the cache key's `params`). */
export function chatParams(
  req: CompletionRequest,
  o: Omit<ChatTransportOptions, "client" | "backend">,
): Record<string, unknown> {
  const out: Record<string, unknown> = { [o.policy.tokenField]: req.maxTokens };
  const effort = req.reasoningEffort?.trim().toLowerCase();
  if (effort && o.policy.effort !== "none" && (o.efforts ?? []).includes(effort)) {
    if (o.policy.effort === "reasoning_effort") out.reasoning_effort = effort;
    else out.reasoning = { effort };
  }
  if (o.policy.temperature && o.temperature !== undefined && o.temperature !== null) out.temperature = o.temperature;
  return out;
}

/** The full request body. */
export function chatBody(
  req: CompletionRequest,
  o: Omit<ChatTransportOptions, "client" | "backend">,
): Record<string, unknown> {
  return { model: o.model, messages: toChatMessages(req.system, req.messages), ...chatParams(req, o) };
}

/**
 * Text, usage and truncation of a Chat Completions answer (`finish_reason: length` = cut off by the
 * limit); a missing choice or a cut-off empty answer is an error.
 */
export function readChatAnswer(
  res: OpenAI.Chat.Completions.ChatCompletion,
  req: CompletionRequest,
  backend: string,
): TransportAnswer {
  const choice = res?.choices?.[0];
  if (!choice)
    throw new BackendError({ kind: "transient", backend, message: `${backend}: malformed response (no choices)` });
  const text = typeof choice.message?.content === "string" ? choice.message.content : "";
  if (!text && choice.finish_reason === "length") {
    throw new BackendError({
      kind: "fatal",
      backend,
      message: `${backend}: the answer was cut off at ${req.maxTokens} tokens before any text (raise the max tokens or lower the reasoning effort)`,
    });
  }
  const u = res.usage;
  return {
    text,
    truncated: choice.finish_reason === "length",
    usage: u
      ? { promptTokens: u.prompt_tokens ?? 0, completionTokens: u.completion_tokens ?? 0 }
      : { promptTokens: estimatePromptTokens(req), completionTokens: Math.ceil(text.length / 4) },
  };
}

export function chatTransport(o: ChatTransportOptions): Transport {
  return {
    params: (req) => chatParams(req, o),
    async send(req, signal) {
      const body = chatBody(req, o) as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
      const res = await o.client.chat.completions.create(body, { signal });
      return readChatAnswer(res, req, o.backend);
    },
  };
}

/**
 * The OpenAI Responses API through the openai SDK: `instructions` = the system prompt, `input` = the
 * conversation, `max_output_tokens`, and `reasoning: {effort}` for reasoning models that accept it.
 */
import type OpenAI from "openai";
import type { CompletionRequest } from "../../engine/ports";
import { BackendError } from "../errors";
import type { Transport } from "../policy/client";
import { responsesText, toResponsesInput } from "./messages";

export interface ResponsesTransportOptions {
  client: OpenAI;
  backend: string;
  model: string;
  /** Efforts the model accepts; an empty list means reasoning is never sent. */
  efforts: readonly string[];
}

export function responsesParams(req: CompletionRequest, efforts: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { api: "responses", max_output_tokens: req.maxTokens };
  const effort = req.reasoningEffort?.trim().toLowerCase();
  if (effort && efforts.includes(effort)) out.reasoning = { effort };
  return out;
}

export function responsesBody(
  req: CompletionRequest,
  o: Omit<ResponsesTransportOptions, "client" | "backend">,
): Record<string, unknown> {
  const { api: _api, ...params } = responsesParams(req, o.efforts);
  return {
    model: o.model,
    ...(req.system ? { instructions: req.system } : {}),
    input: toResponsesInput(req.messages),
    ...params,
  };
}

export function responsesTransport(o: ResponsesTransportOptions): Transport {
  return {
    params: (req) => responsesParams(req, o.efforts),
    async send(req, signal) {
      const body = responsesBody(req, o) as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
      const res = await o.client.responses.create(body, { signal });
      const text = responsesText(res);
      if (res.status === "failed") {
        throw new BackendError({
          kind: "transient",
          backend: o.backend,
          message: `${o.backend}: the response failed (${res.error?.code ?? "no code"}: ${res.error?.message ?? "no message"})`,
        });
      }
      if (!text && res.status === "incomplete") {
        const why = res.incomplete_details?.reason ?? "incomplete";
        throw new BackendError({
          kind: "fatal",
          backend: o.backend,
          message: `${o.backend}: the answer ended before any text (${why}); raise the max tokens or lower the reasoning effort`,
        });
      }
      // Only the token limit counts as truncation; an answer stopped by a content filter is a complete (if short) answer.
      const truncated = res.status === "incomplete" && res.incomplete_details?.reason === "max_output_tokens";
      return {
        text,
        truncated,
        usage: { promptTokens: res.usage?.input_tokens ?? 0, completionTokens: res.usage?.output_tokens ?? 0 },
      };
    },
  };
}

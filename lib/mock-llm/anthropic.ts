/**
 * Anthropic Messages wire format: `system` is a string or text blocks, `messages` alternate user and
 * assistant turns, and `max_tokens` is required by the real API (the mock only honours it).
 */
import { contentText, type Completion, type Prompt } from "./answer";
import type { Parsed } from "./openai";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function parseMessages(body: unknown): Parsed {
  if (!isObject(body)) return { error: "The request body must be a JSON object." };
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return { error: "messages: must be a non-empty array" };
  }
  const user = body.messages
    .filter(isObject)
    .map((m) => contentText(m.content))
    .join("\n");
  const maxTokens = typeof body.max_tokens === "number" && body.max_tokens > 0 ? Math.floor(body.max_tokens) : null;
  return {
    model: typeof body.model === "string" ? body.model : "",
    system: contentText(body.system),
    user,
    maxTokens,
  };
}

export function formatMessage(p: Prompt, c: Completion, id: string): unknown {
  return {
    id: `msg_${id}`,
    type: "message",
    role: "assistant",
    model: p.model || `sim-${c.role}`,
    content: [{ type: "text", text: c.text }],
    stop_reason: c.finish === "stop" ? "end_turn" : "max_tokens",
    stop_sequence: null,
    usage: {
      input_tokens: c.promptTokens,
      output_tokens: c.completionTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

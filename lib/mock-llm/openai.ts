/**
 * OpenAI wire formats: Chat Completions (also behind Azure's deployment paths) and the Responses API.
 * Response bodies carry the fields openai@6 reads; `responses.create` recomputes `output_text` from
 * `output`, so the message item is what matters there.
 */
import { contentText, type Completion, type Prompt } from "./answer";

export type Parsed = Prompt | { error: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function positiveInt(...values: unknown[]): number | null {
  for (const v of values) if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  return null;
}

/** Splits chat messages into the system text (system/developer roles) and everything else. */
function splitMessages(messages: unknown[]): { system: string; user: string } {
  const system: string[] = [];
  const user: string[] = [];
  for (const m of messages) {
    if (!isObject(m)) continue;
    const text = contentText(m.content);
    if (m.role === "system" || m.role === "developer") system.push(text);
    else user.push(text);
  }
  return { system: system.join("\n"), user: user.join("\n") };
}

/** `deployment` (Azure path form) names the model when given. */
export function parseChatCompletions(body: unknown, deployment?: string): Parsed {
  if (!isObject(body)) return { error: "The request body must be a JSON object." };
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return { error: "'messages' must be a non-empty array." };
  }
  const { system, user } = splitMessages(body.messages);
  const model = deployment ?? (typeof body.model === "string" ? body.model : "");
  return { model, system, user, maxTokens: positiveInt(body.max_completion_tokens, body.max_tokens) };
}

export function parseResponses(body: unknown): Parsed {
  if (!isObject(body)) return { error: "The request body must be a JSON object." };
  const instructions = typeof body.instructions === "string" ? body.instructions : "";
  let system = "";
  let user: string;
  if (typeof body.input === "string") user = body.input;
  else if (Array.isArray(body.input)) ({ system, user } = splitMessages(body.input));
  else return { error: "'input' must be a string or an array of input items." };
  return {
    model: typeof body.model === "string" ? body.model : "",
    system: [instructions, system].filter((s) => s !== "").join("\n"),
    user,
    maxTokens: positiveInt(body.max_output_tokens),
  };
}

const modelName = (p: Prompt, c: Completion) => p.model || `sim-${c.role}`;
const now = () => Math.floor(Date.now() / 1000);

export function formatChatCompletion(p: Prompt, c: Completion, id: string): unknown {
  return {
    id: `chatcmpl-${id}`,
    object: "chat.completion",
    created: now(),
    model: modelName(p, c),
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: c.text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: c.finish,
      },
    ],
    usage: {
      prompt_tokens: c.promptTokens,
      completion_tokens: c.completionTokens,
      total_tokens: c.promptTokens + c.completionTokens,
    },
    system_fingerprint: "skillopt-mock",
  };
}

export function formatResponse(p: Prompt, c: Completion, id: string): unknown {
  const complete = c.finish === "stop";
  return {
    id: `resp_${id}`,
    object: "response",
    created_at: now(),
    status: complete ? "completed" : "incomplete",
    incomplete_details: complete ? null : { reason: "max_output_tokens" },
    error: null,
    model: modelName(p, c),
    output: [
      {
        type: "message",
        id: `msg_${id}`,
        role: "assistant",
        status: complete ? "completed" : "incomplete",
        content: [{ type: "output_text", text: c.text, annotations: [] }],
      },
    ],
    output_text: c.text,
    usage: {
      input_tokens: c.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: c.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: c.promptTokens + c.completionTokens,
    },
  };
}

/**
 * The engine's messages in the two OpenAI wire shapes: Chat Completions (`messages`, system first,
 * images as data-URL `image_url` parts) and the Responses API (`instructions` + `input` items).
 * Shared by the openai, azure-openai and openai-compatible backends.
 */
import type OpenAI from "openai";
import type { ChatContentPart, ChatMessage } from "../../engine/ports";

type ChatParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

const dataUrl = (p: Extract<ChatContentPart, { type: "image" }>) => `data:${p.mediaType};base64,${p.dataBase64}`;

/** Text of a message's content (images dropped), for roles that take text only. */
export function textOf(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return content
    .map((p) => (p.type === "text" ? p.text : ""))
    .filter(Boolean)
    .join("\n");
}

function chatParts(parts: ChatContentPart[]): ChatPart[] {
  return parts.map((p): ChatPart => {
    if (p.type === "text") return { type: "text", text: p.text };
    // `detail` is sent only when it asks for something other than the provider default.
    return {
      type: "image_url",
      image_url: { url: dataUrl(p), ...(p.detail && p.detail !== "auto" ? { detail: p.detail } : {}) },
    };
  });
}

/** Chat Completions messages: the system prompt first (when non-empty), then the conversation. */
export function toChatMessages(system: string, messages: ChatMessage[]): ChatParam[] {
  const out: ChatParam[] = system ? [{ role: "system", content: system }] : [];
  for (const m of messages) {
    if (m.role === "assistant") out.push({ role: "assistant", content: textOf(m.content) });
    else out.push({ role: "user", content: typeof m.content === "string" ? m.content : chatParts(m.content) });
  }
  return out;
}

type ResponsesInput = OpenAI.Responses.ResponseInputItem[];
type InputContent = OpenAI.Responses.ResponseInputMessageContentList;

/** Responses API `input`: user messages may carry images; assistant turns are text. */
export function toResponsesInput(messages: ChatMessage[]): ResponsesInput {
  return messages.map((m) => {
    if (m.role === "assistant" || typeof m.content === "string") return { role: m.role, content: textOf(m.content) };
    const content: InputContent = m.content.map((p) =>
      p.type === "text"
        ? { type: "input_text", text: p.text }
        : { type: "input_image", image_url: dataUrl(p), detail: p.detail ?? "auto" },
    );
    return { role: "user", content };
  });
}

/** The text of a Responses API answer: `output_text`, else the concatenated output_text parts. */
export function responsesText(res: { output_text?: unknown; output?: unknown }): string {
  if (typeof res.output_text === "string" && res.output_text) return res.output_text;
  const items = Array.isArray(res.output) ? (res.output as Array<{ type?: string; content?: unknown }>) : [];
  const texts: string[] = [];
  for (const item of items) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const c of item.content as Array<{ type?: string; text?: unknown }>) {
      if (c.type === "output_text" && typeof c.text === "string") texts.push(c.text);
    }
  }
  return texts.join("");
}

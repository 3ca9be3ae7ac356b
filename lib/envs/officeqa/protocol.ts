/**
 * The text tool protocol. Our model clients have no native function calling, so the agent asks for tools
 * in plain text — one or more `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks per reply —
 * and gets the results back as the next user message. This works the same with every backend (chat
 * APIs, exec CLIs, the simulated model). A block that is not a valid request becomes an error result the
 * model can correct, never an exception.
 */
import { isRecord } from "../common/read-items";
import type { ToolCall } from "./tools";

/** At most this many tool calls of one reply are executed; the rest get an error result. */
export const MAX_CALLS_PER_REPLY = 8;

const TOOL_CALL_BLOCK = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/gi;

/** One requested call: parsed, or the reason it could not be. */
export type ParsedToolCall = { ok: true; call: ToolCall } | { ok: false; error: string; raw: string };

function stripFence(text: string): string {
  const m = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text.trim());
  return m ? (m[1] ?? "") : text.trim();
}

/** Every `<tool_call>` block of a reply, in order (an unclosed last block is still read). */
export function parseToolCalls(reply: string): ParsedToolCall[] {
  const out: ParsedToolCall[] = [];
  for (const m of reply.matchAll(TOOL_CALL_BLOCK)) {
    const raw = (m[1] ?? "").trim();
    out.push(parseOne(raw));
  }
  return out;
}

function parseOne(raw: string): ParsedToolCall {
  let value: unknown;
  try {
    value = JSON.parse(stripFence(raw));
  } catch {
    return {
      ok: false,
      raw,
      error: 'the tool call is not valid JSON; write {"name": "grep", "arguments": {"pattern": "…"}}',
    };
  }
  if (!isRecord(value) || typeof value.name !== "string" || value.name.trim() === "") {
    return { ok: false, raw, error: 'the tool call needs a "name" (glob, read or grep) and an "arguments" object' };
  }
  let args: unknown = value.arguments ?? value.args ?? value.parameters ?? {};
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return { ok: false, raw, error: '"arguments" is a string that is not a JSON object' };
    }
  }
  if (!isRecord(args)) return { ok: false, raw, error: '"arguments" must be a JSON object' };
  return { ok: true, call: { name: value.name.trim().toLowerCase(), arguments: args } };
}

/** True when the reply contains an `<answer>` tag. */
export function hasAnswer(reply: string): boolean {
  return /<answer>[\s\S]*?<\/answer>/i.test(reply);
}

/** One executed call and its text result. */
export interface ToolExchange {
  name: string;
  arguments?: Record<string, unknown>;
  result: string;
  ok: boolean;
}

/** The closing line of a results message: how many rounds are left, or that the next reply must answer. */
export function roundTail(round: number, maxRounds: number): string {
  return maxRounds - round <= 1
    ? "This is your last round: give your final answer now inside <answer></answer>."
    : `Round ${round} of ${maxRounds} done. Ask for more or give your final answer inside <answer></answer>.`;
}

/** The user message that carries the results of one round back to the model. */
export function formatToolResults(results: readonly ToolExchange[], round: number, maxRounds: number): string {
  const blocks = results.map((r, i) => `<tool_result name="${r.name}" call="${i + 1}">\n${r.result}\n</tool_result>`);
  return `${blocks.join("\n\n")}\n\n${roundTail(round, maxRounds)}`;
}

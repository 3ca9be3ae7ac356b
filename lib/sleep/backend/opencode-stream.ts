/**
 * Reading OpenCode's `run --format json` event stream (spec D.10): one session, a step started and
 * finished, text parts for the answer. A plain call may use no tool at all; a tool replay may use only
 * the synthetic tools it was given, each call completed with exactly the fixed input and result, and an
 * answer must follow the last tool call. Anything else is a named error, never a partial answer.
 */

/** The one argument and the one result of every synthetic replay tool. */
export const SYNTHETIC_QUERY = "synthetic";
export const SYNTHETIC_RESULT = "Synthetic replay result available.";

export const STREAM_ERRORS: Record<string, string> = {
  malformed_jsonl: "returned malformed JSONL",
  invalid_event: "returned an invalid JSONL event",
  mixed_session: "returned events of more than one session",
  error_event: "emitted an error event",
  unexpected_tool_event: "tried to use a tool",
  invalid_tool_event: "returned an invalid tool event",
  unexpected_tool_id: "used a tool it was not given",
  tool_error: "reported a failed synthetic tool",
  incomplete_stream: "returned an incomplete stream",
  missing_final_text: "gave no answer after its last tool call",
  empty_response: "returned an empty response",
};

type Event = {
  type?: unknown;
  sessionID?: unknown;
  part?: {
    type?: unknown;
    text?: unknown;
    tool?: unknown;
    state?: { status?: unknown; input?: unknown; output?: unknown };
  };
};

function isSyntheticInput(input: unknown): boolean {
  return (
    typeof input === "object" &&
    input !== null &&
    !Array.isArray(input) &&
    Object.keys(input).length === 1 &&
    (input as { query?: unknown }).query === SYNTHETIC_QUERY
  );
}

/** The final text and the ids of the tools called, or the reason the stream is not an answer. */
export function parseOpenCodeJsonl(
  raw: string,
  expectedTools: ReadonlySet<string> | null = null,
): { text: string; called: string[] } | { error: string } {
  const parts: string[] = [];
  const called: string[] = [];
  let session = "";
  let sawStart = false;
  let needsText = false;
  let last = "";
  for (const line of raw
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    let e: Event;
    try {
      e = JSON.parse(line) as Event;
    } catch {
      return { error: "malformed_jsonl" };
    }
    if (
      typeof e !== "object" ||
      e === null ||
      typeof e.type !== "string" ||
      !e.type ||
      typeof e.sessionID !== "string" ||
      !e.sessionID
    )
      return { error: "invalid_event" };
    if (session && e.sessionID !== session) return { error: "mixed_session" };
    session = e.sessionID;
    if (e.type === "error") return { error: "error_event" };
    if (e.type === "tool_use") {
      if (expectedTools === null) return { error: "unexpected_tool_event" };
      const p = e.part;
      if (
        typeof p !== "object" ||
        p === null ||
        p.type !== "tool" ||
        typeof p.tool !== "string" ||
        typeof p.state !== "object" ||
        p.state === null
      )
        return { error: "invalid_tool_event" };
      if (!expectedTools.has(p.tool)) return { error: "unexpected_tool_id" };
      if (p.state.status === "error") return { error: "tool_error" };
      if (p.state.status !== "completed" || !isSyntheticInput(p.state.input) || p.state.output !== SYNTHETIC_RESULT)
        return { error: "invalid_tool_event" };
      called.push(p.tool);
      parts.length = 0; // only text after the last tool call is the answer
      needsText = true;
      last = e.type;
      continue;
    }
    const wantPart = (
      { text: "text", step_start: "step-start", step_finish: "step-finish", reasoning: "reasoning" } as Record<
        string,
        string
      >
    )[e.type];
    if (wantPart === undefined) continue; // an event kind this parser does not need
    if (typeof e.part !== "object" || e.part === null || e.part.type !== wantPart) return { error: "invalid_event" };
    last = e.type;
    if (e.type === "text") {
      if (typeof e.part.text !== "string") return { error: "invalid_event" };
      parts.push(e.part.text);
      if (e.part.text.trim()) needsText = false;
    }
    if (e.type === "step_start") sawStart = true;
  }
  if (!sawStart || last !== "step_finish") return { error: "incomplete_stream" };
  if (needsText) return { error: "missing_final_text" };
  const text = parts.join("\n").trim();
  return text ? { text, called } : { error: "empty_response" };
}

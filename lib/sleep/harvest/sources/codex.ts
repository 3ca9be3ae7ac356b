/**
 * Codex: `<codex home>/archived_sessions/*.jsonl`, records `{timestamp, type, payload{type, …}}`. A turn
 * appears twice — as an event (`user_message` / `agent_message`) and as a model message
 * (`message` with a role, which also carries Codex's injected context and AGENTS.md) — so the events
 * are read when the file has any, else the messages. Tool names come from the call and end payloads;
 * tool arguments and outputs are never read.
 */
import path from "node:path";
import { DigestBuilder } from "../builder";
import type { HarvestRun } from "../run";
import { isRelatedPath } from "../scope";
import { forEachRecord, listTranscripts, obj, stem, str } from "./common";

interface Turn {
  role: "user" | "assistant";
  text: string;
}

/** Payload types that mean a tool ran, by the name they are recorded under. */
const TOOL_EVENTS: Record<string, string> = {
  exec_command_end: "exec_command",
  patch_apply_end: "apply_patch",
  web_search_call: "web_search",
  tool_search_call: "tool_search",
};

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(textOf).filter(Boolean).join("\n");
  const o = obj(content);
  if (!o) return "";
  if (typeof o.text === "string") return o.text;
  return o.content === undefined ? "" : textOf(o.content);
}

/**
 * A user message without Codex's own context: the internal and environment blocks are dropped whole;
 * an AGENTS.md preamble keeps only what the user typed after it.
 */
export function stripCodexContext(text: string): string {
  const t = text.trim();
  if (t.startsWith("<codex_internal_context") || t.startsWith("<environment_context")) return "";
  if (!t.startsWith("# AGENTS.md instructions") && !t.includes("--- project-doc ---")) return t;
  for (const end of ["</environment_context>", "</INSTRUCTIONS>"]) {
    const at = t.lastIndexOf(end);
    if (at === -1) continue;
    const tail = t.slice(at + end.length).trim();
    if (tail && !tail.startsWith("<")) return tail;
  }
  return "";
}

function toolOf(payload: Record<string, unknown>): string {
  const type = str(payload.type);
  if (str(payload.name)) return str(payload.name);
  if (TOOL_EVENTS[type]) return TOOL_EVENTS[type];
  return type.endsWith("_tool_call") ? type : "";
}

export async function harvestCodex(run: HarvestRun, codexHome: string): Promise<void> {
  const root = path.join(codexHome, "archived_sessions");
  const files = await listTranscripts(run, "Codex", root, { recursive: false, accept: (n) => n.endsWith(".jsonl") });
  const invoked = run.opts.scope.kind === "invoked" ? run.opts.scope.project : "";
  for (const f of files) {
    if (run.full) break;
    if (run.olderThanSince(f.mtimeMs)) {
      run.skip("beforeSince");
      continue;
    }
    const b = new DigestBuilder(run, { sessionId: stem(f.path), source: "codex", rawPath: f.path });
    const events: Turn[] = [];
    const messages: Turn[] = [];
    const ok = await forEachRecord(run, f.path, (rec) => {
      const payload = obj(rec.payload);
      if (!payload) return;
      b.seeTime(str(payload.timestamp) || str(rec.timestamp));
      readPayload(b, payload, { events, messages, invoked, run });
    });
    if (!ok) continue;
    for (const turn of events.length > 0 ? events : messages) {
      if (turn.role === "user") b.addUser(stripCodexContext(turn.text));
      else b.addAssistant(turn.text);
    }
    run.admit(b.build());
  }
}

function readPayload(
  b: DigestBuilder,
  p: Record<string, unknown>,
  ctx: { events: Turn[]; messages: Turn[]; invoked: string; run: HarvestRun },
): void {
  const cwd = str(p.cwd);
  // A session can change folders; under the invoked scope the folder that matches the project wins.
  if (cwd && (!b.project || (ctx.invoked && isRelatedPath(cwd, ctx.invoked, ctx.run.rules)))) b.project = cwd;
  const branch = str(obj(p.git)?.branch);
  if (branch && !b.gitBranch) b.gitBranch = branch;
  const type = str(p.type);
  if (type === "user_message") ctx.events.push({ role: "user", text: textOf(p.message) });
  else if (type === "agent_message") ctx.events.push({ role: "assistant", text: textOf(p.message) });
  else if (type === "message" && (p.role === "user" || p.role === "assistant")) {
    ctx.messages.push({ role: p.role, text: textOf(p.content) });
  } else if (type !== "session_meta" && type !== "turn_context") b.addTool(toolOf(p));
}

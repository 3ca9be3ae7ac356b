/**
 * `codex-exec`: the Codex CLI answers in its workspace (`codex exec --json … -`, prompt on stdin). The
 * answer is the file written by `--output-last-message` (else the last `agent_message` item of the JSONL
 * events), usage comes from `turn.completed`, and `turn.failed` / `error` events or a bad exit are failures.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ModelClient } from "../../engine/ports";
import { createExecClient, type ExecDriver } from "./client";
import { num, obj, parseJsonLines, str, type Json } from "./json";
import { describeExit, type CliOutput } from "./run-cli";
import { TASK_REL_PATH, type ExecAttempt, type ExecSettings } from "./types";

/** Where `--output-last-message` writes the final answer, inside the workspace. */
export const LAST_MESSAGE_FILE = ".skillopt_last_message.txt";

interface CodexSummary extends ExecAttempt {
  lastAgentMessage?: string;
  turnFailed?: string;
  errors: string[];
  completed: boolean;
}

function describeItem(item: Json, sum: CodexSummary, reads: Set<string>): void {
  switch (item.type) {
    case "command_execution": {
      const command = str(item.command) ?? "";
      const exit = item.exit_code === null || item.exit_code === undefined ? "?" : String(item.exit_code);
      sum.traceLines.push(`$ ${command} → exit ${exit}`);
      if (item.exit_code === 0) for (const f of [TASK_REL_PATH, "SKILL.md"]) if (command.includes(f)) reads.add(f);
      return;
    }
    case "agent_message":
      sum.lastAgentMessage = str(item.text) ?? sum.lastAgentMessage;
      return;
    case "file_change": {
      const changes = Array.isArray(item.changes) ? item.changes.map(obj) : [];
      sum.traceLines.push(`changed: ${changes.map((c) => `${str(c.kind) ?? "?"} ${str(c.path) ?? "?"}`).join(", ")}`);
      return;
    }
    case "mcp_tool_call":
      sum.traceLines.push(`tool: ${str(item.server) ?? "?"}.${str(item.tool) ?? "?"} (${str(item.status) ?? "?"})`);
      return;
    case "web_search":
      sum.traceLines.push(`web search: ${str(item.query) ?? ""}`);
      return;
    case "error":
      sum.traceLines.push(`error item: ${str(item.message) ?? ""}`);
      return;
    default:
      return; // reasoning and todo lists are counted or ignored, not listed
  }
}

/** Summarises Codex JSONL events: answer candidates, usage, failures and trace lines. */
export function summariseCodexEvents(events: Json[]): CodexSummary {
  const sum: CodexSummary = {
    answer: "",
    promptTokens: 0,
    completionTokens: 0,
    traceLines: [],
    errors: [],
    completed: false,
  };
  const reads = new Set<string>();
  let reasoning = 0;
  let cached = 0;
  for (const ev of events) {
    if (ev.type === "item.completed") {
      const item = obj(ev.item);
      if (item.type === "reasoning") reasoning++;
      describeItem(item, sum, reads);
    } else if (ev.type === "turn.completed") {
      const usage = obj(ev.usage);
      sum.promptTokens += num(usage.input_tokens);
      sum.completionTokens += num(usage.output_tokens);
      cached += num(usage.cached_input_tokens);
      sum.completed = true;
    } else if (ev.type === "turn.failed") {
      sum.turnFailed = str(obj(ev.error).message) ?? "turn failed";
      sum.traceLines.push(`turn failed: ${sum.turnFailed}`);
    } else if (ev.type === "error") {
      const message = str(ev.message) ?? "error event";
      sum.errors.push(message);
      sum.traceLines.push(`error event: ${message}`);
    }
  }
  const yes = (f: string) => (reads.has(f) ? "yes" : "no");
  sum.traceLines.push(
    `read ${TASK_REL_PATH}: ${yes(TASK_REL_PATH)} · read SKILL.md: ${yes("SKILL.md")} · reasoning steps: ${reasoning}`,
  );
  sum.traceLines.push(`tokens: in ${sum.promptTokens} (cached ${cached}) out ${sum.completionTokens}`);
  return sum;
}

/**
 * Why the run failed, or undefined. A non-zero exit or `turn.failed` always fails; an `error` event
 * fails unless the turn still completed afterwards (Codex reports stream reconnects as error events).
 */
export function codexFailure(out: CliOutput, sum: CodexSummary): string | undefined {
  const lastError = sum.errors[sum.errors.length - 1];
  if (out.code !== 0) return sum.turnFailed ?? lastError ?? describeExit(out);
  if (sum.turnFailed !== undefined) return sum.turnFailed;
  if (lastError !== undefined && !sum.completed) return lastError;
  return undefined;
}

async function readLastMessage(dir: string): Promise<string> {
  try {
    return await readFile(join(dir, LAST_MESSAGE_FILE), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw err;
  }
}

const codexDriver: ExecDriver = {
  kind: "codex",
  header: (s) =>
    `codex-exec · sandbox ${s.sandbox} · model ${s.model ?? "(CLI default)"} · effort ${s.reasoningEffort ?? "(CLI default)"}`,
  args(s, ws) {
    const args = ["exec"];
    // Images first: `-i` takes several values, so the next token must be a flag, never the `-` prompt.
    for (const a of ws.attachments) args.push("-i", join(ws.dir, a));
    args.push("--json", "--skip-git-repo-check", "--color", "never", "-C", ws.dir, "--sandbox", s.sandbox);
    args.push("-c", 'approval_policy="never"');
    if (s.model) args.push("-m", s.model);
    if (s.reasoningEffort) args.push("-c", `model_reasoning_effort="${s.reasoningEffort}"`);
    args.push("--output-last-message", join(ws.dir, LAST_MESSAGE_FILE), "-");
    return args;
  },
  async read(out, ws) {
    const sum = summariseCodexEvents(parseJsonLines(out.stdout));
    const fromFile = (await readLastMessage(ws.dir)).trim();
    const answer = fromFile !== "" ? fromFile : (sum.lastAgentMessage ?? "").trim();
    return {
      answer,
      promptTokens: sum.promptTokens,
      completionTokens: sum.completionTokens,
      traceLines: sum.traceLines,
      failure: codexFailure(out, sum),
    };
  },
};

/** The `codex-exec` target client. */
export function createCodexExecClient(settings: ExecSettings): ModelClient {
  return createExecClient(codexDriver, settings);
}

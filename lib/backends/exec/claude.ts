/**
 * `claude-code-exec`: Claude Code answers in its workspace (`claude -p --output-format json …`, prompt on
 * stdin, cwd = workspace). The answer is the `result` of the `type:"result"` object; `is_error` or a bad
 * exit is a failure. `--verbose` makes the CLI print every session message as a JSON array (the result
 * last), which gives the trace its tool calls; a single result object or JSON lines are read as well.
 */
import type { ModelClient } from "../../engine/ports";
import { createExecClient, type ExecDriver } from "./client";
import { num, obj, parseJsonLines, str, type Json } from "./json";
import { describeExit, type CliOutput } from "./run-cli";
import { TASK_REL_PATH, type ExecAttempt, type ExecSettings } from "./types";

/** Claude Code's session messages from stdout: a JSON array, one JSON object, or JSON lines. */
export function parseClaudeOutput(stdout: string): Json[] {
  const text = stdout.trim();
  if (text.startsWith("[") || text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      return Array.isArray(parsed) ? parsed.map(obj) : [obj(parsed)];
    } catch {
      return parseJsonLines(text); // not one JSON value: read it line by line
    }
  }
  return parseJsonLines(text);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c) => str(obj(c).text) ?? "").join(" ");
}

/** Trace lines for the tool calls and tool errors of the assistant and user messages. */
function describeToolUse(events: Json[], lines: string[], reads: Set<string>): void {
  for (const ev of events) {
    if (ev.type !== "assistant" && ev.type !== "user") continue;
    const content = obj(ev.message).content;
    for (const block of Array.isArray(content) ? content.map(obj) : []) {
      if (block.type === "tool_use") {
        const input = obj(block.input);
        const target = str(input.file_path) ?? str(input.command) ?? str(input.pattern) ?? "";
        const name = str(block.name) ?? "?";
        lines.push(name === "Bash" ? `$ ${target}` : name === "Read" ? `read ${target}` : `tool ${name}: ${target}`);
        for (const f of [TASK_REL_PATH, "SKILL.md"]) if (target.includes(f)) reads.add(f);
      } else if (block.type === "tool_result" && block.is_error === true) {
        lines.push(`tool error: ${textOf(block.content)}`);
      }
    }
  }
}

/** Reads one Claude Code run: answer, usage, failure and trace lines. */
export function summariseClaudeRun(out: CliOutput): ExecAttempt & { failure?: string } {
  const events = parseClaudeOutput(out.stdout);
  const result = [...events].reverse().find((e) => e.type === "result");
  const lines: string[] = [];
  const reads = new Set<string>();
  describeToolUse(events, lines, reads);
  const yes = (f: string) => (reads.has(f) ? "yes" : "no");
  lines.push(`opened ${TASK_REL_PATH}: ${yes(TASK_REL_PATH)} · opened SKILL.md: ${yes("SKILL.md")}`);
  if (!result) {
    const failure = out.code !== 0 ? describeExit(out) : "the CLI printed no result object";
    return { answer: "", promptTokens: 0, completionTokens: 0, traceLines: lines, failure };
  }
  const usage = obj(result.usage);
  const promptTokens =
    num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens);
  const completionTokens = num(usage.output_tokens);
  const cost = typeof result.total_cost_usd === "number" ? ` · cost $${result.total_cost_usd.toFixed(4)}` : "";
  lines.push(
    `turns: ${num(result.num_turns)} · ${(num(result.duration_ms) / 1000).toFixed(1)} s${cost} · ${str(result.subtype) ?? "?"}`,
  );
  lines.push(`tokens: in ${promptTokens} out ${completionTokens}`);
  const answer = str(result.result) ?? "";
  let failure: string | undefined;
  if (result.is_error === true) {
    const errors = Array.isArray(result.errors) ? result.errors.map(String).join("; ") : "";
    failure = answer.trim() || errors || `error result (${str(result.subtype) ?? "unknown"})`;
  } else if (out.code !== 0) {
    failure = describeExit(out);
  }
  return { answer, promptTokens, completionTokens, traceLines: lines, failure };
}

/** Claude Code's `--effort`: xhigh is spelled max there; none/off means "do not send". */
export function claudeEffort(effort: string | undefined): string | undefined {
  const e = effort?.toLowerCase();
  if (!e || e === "none" || e === "off") return undefined;
  return e === "xhigh" ? "max" : e;
}

const claudeDriver: ExecDriver = {
  kind: "claude",
  header: (s) =>
    `claude-code-exec · ${s.sandbox} · model ${s.model ?? "(CLI default)"} · effort ${claudeEffort(s.reasoningEffort) ?? "(CLI default)"}`,
  args(s, ws) {
    const args = ["-p", "--output-format", "json", "--verbose", "--permission-mode", "bypassPermissions"];
    args.push("--add-dir", ws.dir, "--allowedTools", "Read,Bash");
    if (s.model) args.push("--model", s.model);
    const effort = claudeEffort(s.reasoningEffort);
    if (effort) args.push("--effort", effort);
    return args;
  },
  read: async (out) => summariseClaudeRun(out),
};

/** The `claude-code-exec` target client. */
export function createClaudeCodeExecClient(settings: ExecSettings): ModelClient {
  return createExecClient(claudeDriver, settings);
}

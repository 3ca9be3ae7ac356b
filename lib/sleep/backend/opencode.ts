/**
 * OpenCode as a Sleep backend (spec D.10): `opencode run --pure --format json --agent <agent> --title
 * skillopt-sleep --dir <work> [--model M]`, the prompt on stdin, 180 s. Each call defines a throwaway
 * agent (`skillopt-sleep-<32 hex>`, which harvest recognises and skips) whose every permission is
 * denied, disables project config, plugins and session snapshots, and turns off every MCP server the
 * user configured — then checks with `opencode debug config` that all of them really are off before the
 * prompt is sent; if not, the night stops. The answer is read from the JSONL event stream, which must be
 * one session, start and finish a step, and (in a plain call) use no tool.
 */
import { randomBytes } from "node:crypto";
import { runCli, type CliOutput, type ExecEnv } from "../../backends/exec";
import { AppError } from "../../errors";
import { AgentCliClient, CliCallError, exitError, resolveCliBin } from "./agent-cli";
import type { ToolRunner } from "./model";

export const OPENCODE_TIMEOUT_MS = 180_000;
const INSTALL = "Install it with `npm i -g opencode-ai`.";

const STREAM_ERRORS: Record<string, string> = {
  malformed_jsonl: "returned malformed JSONL",
  invalid_event: "returned an invalid JSONL event",
  mixed_session: "returned events of more than one session",
  error_event: "emitted an error event",
  unexpected_tool_event: "tried to use a tool",
  incomplete_stream: "returned an incomplete stream",
  empty_response: "returned an empty response",
};

/** The final text of an OpenCode JSONL stream, or the reason it is not an answer. */
export function parseOpenCodeJsonl(raw: string): { text: string } | { error: string } {
  const parts: string[] = [];
  let session = "";
  let sawStart = false;
  let last = "";
  for (const line of raw.split("\n").map((l) => l.trim()).filter(Boolean)) {
    let e: { type?: unknown; sessionID?: unknown; part?: { type?: unknown; text?: unknown } };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      return { error: "malformed_jsonl" };
    }
    if (typeof e !== "object" || e === null || typeof e.type !== "string" || !e.type || typeof e.sessionID !== "string" || !e.sessionID) return { error: "invalid_event" };
    if (session && e.sessionID !== session) return { error: "mixed_session" };
    session = e.sessionID;
    if (e.type === "error") return { error: "error_event" };
    if (e.type === "tool_use") return { error: "unexpected_tool_event" };
    const wantPart = { text: "text", step_start: "step-start", step_finish: "step-finish", reasoning: "reasoning" }[e.type];
    if (wantPart === undefined) continue; // an event kind this parser does not need
    if (typeof e.part !== "object" || e.part === null || e.part.type !== wantPart) return { error: "invalid_event" };
    last = e.type;
    if (e.type === "text") {
      if (typeof e.part.text !== "string") return { error: "invalid_event" };
      parts.push(e.part.text);
    }
    if (e.type === "step_start") sawStart = true;
  }
  if (!sawStart || last !== "step_finish") return { error: "incomplete_stream" };
  const text = parts.join("\n").trim();
  return text ? { text } : { error: "empty_response" };
}

function childEnv(env: ExecEnv, work: string, permission: Record<string, string>): ExecEnv {
  const out: ExecEnv = Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && v !== "" && k !== "OPENCODE_DIRECT_TRACE" && k !== "OLDPWD"));
  return {
    ...out,
    NO_COLOR: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
    OPENCODE_DISABLE_PROJECT_CONFIG: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_TERMINAL_TITLE: "1",
    OPENCODE_PERMISSION: JSON.stringify(permission),
    OPENCODE_PURE: "1",
    PWD: work,
  };
}

type Config = Record<string, unknown>;

/** `opencode debug config --pure` → the resolved configuration and, per MCP server, whether it is off. */
async function readMcp(bin: string, env: ExecEnv, work: string, stage: string): Promise<{ config: Config; off: Record<string, boolean> }> {
  const out = await runCli({ label: `opencode ${stage}`, bin, args: ["debug", "config", "--pure"], cwd: work, env, stdin: "", timeoutMs: OPENCODE_TIMEOUT_MS, installHint: INSTALL });
  if (out.code !== 0) throw new CliCallError(`opencode ${stage}: ${exitError("opencode debug config", out).message}`, { fatal: true });
  let config: unknown;
  try {
    config = JSON.parse(out.stdout);
  } catch {
    config = null;
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw new CliCallError(`opencode ${stage}: 'opencode debug config' did not print a JSON object`, { fatal: true });
  const mcp = (config as Config).mcp ?? {};
  if (typeof mcp !== "object" || mcp === null || Array.isArray(mcp) || Object.values(mcp).some((v) => typeof v !== "object" || v === null)) {
    throw new CliCallError(`opencode ${stage}: the MCP configuration is not an object of servers`, { fatal: true });
  }
  return { config: config as Config, off: Object.fromEntries(Object.entries(mcp as Record<string, { enabled?: unknown }>).map(([k, v]) => [k, v.enabled === false])) };
}

/** The child environment and agent for one run: a deny-all agent, every MCP server off (verified). */
async function prepare(bin: string, source: ExecEnv, work: string): Promise<{ env: ExecEnv; agent: string }> {
  const agent = `skillopt-sleep-${randomBytes(16).toString("hex")}`;
  const permission = { "*": "deny" };
  const config: Config = { snapshot: false, agent: { [agent]: { mode: "primary", permission } } };
  const env = childEnv(source, work, permission);
  env.OPENCODE_CONFIG_CONTENT = JSON.stringify(config);
  const found = await readMcp(bin, env, work, "MCP discovery");
  env.OPENCODE_CONFIG_CONTENT = JSON.stringify({ ...config, mcp: Object.fromEntries(Object.keys(found.off).sort().map((k) => [k, { enabled: false }])) });
  const check = await readMcp(bin, env, work, "MCP verification");
  const on = Object.entries(check.off).filter(([, off]) => !off).map(([k]) => k);
  if (on.length > 0) throw new CliCallError(`opencode: could not turn off the MCP server(s) ${on.join(", ")}; refusing to send prompts`, { fatal: true });
  if (check.config.snapshot !== false) throw new CliCallError("opencode: could not turn off session snapshots; refusing to send prompts", { fatal: true });
  return { env, agent };
}

function parse(out: CliOutput): string {
  if (out.code !== 0) throw exitError("opencode", out);
  const r = parseOpenCodeJsonl(out.stdout);
  if ("error" in r) throw new CliCallError(`opencode ${STREAM_ERRORS[r.error] ?? r.error}`);
  return r.text;
}

export function createOpenCodeClient(o: { model: string; path: string; env: ExecEnv; toolReplay: boolean; workRoot?: string }): { client: AgentCliClient; tools: ToolRunner } {
  if (o.toolReplay) {
    throw new AppError("INVALID_REQUEST", "opencode_tool_replay: OpenCode tool replay with synthetic tools is not available in this build; leave it off (tool tasks then fail with a recorded error)", { field: "opencode_tool_replay" });
  }
  const bin = resolveCliBin({ label: "OpenCode", name: "opencode", explicit: o.path || o.env.SKILLOPT_SLEEP_OPENCODE_PATH || "", setting: "opencode_path", env: o.env, install: INSTALL });
  const model = o.model || o.env.SKILLOPT_SLEEP_OPENCODE_MODEL?.trim() || "";
  const tools: ToolRunner = async () => {
    throw new CliCallError("opencode: tool replay is off for OpenCode; a task that needs a real tool call cannot be replayed");
  };
  const client = new AgentCliClient(
    {
      label: "opencode",
      bin,
      model,
      timeoutMs: OPENCODE_TIMEOUT_MS,
      retries: 0,
      installHint: INSTALL,
      parse,
      invocation: async (prompt, work) => {
        const { env, agent } = await prepare(bin, o.env, work);
        const args = ["run", "--pure", "--format", "json", "--agent", agent, "--title", "skillopt-sleep", "--dir", work];
        return { args: model ? [...args, "--model", model] : args, stdin: prompt, env };
      },
    },
    o.workRoot,
  );
  return { client, tools };
}

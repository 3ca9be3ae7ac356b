/**
 * The SkillOpt-Sleep MCP server (spec D.15) on the official TypeScript SDK: seven `sleep_*` tools for
 * Copilot, Cursor, Claude Code or any MCP host. A tool call runs the `sleep` CLI with `--json` through the
 * injected runner (a child process, so nothing it prints can reach the JSON-RPC stream) and returns its
 * JSON output. Exit 0 is a result; exit 3 (handoff prompts waiting) is a result the agent acts on; any
 * other exit is a tool error carrying the CLI's message.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { redactText } from "../../contracts/redact";
import { SLEEP_TOOLS, sleepArgs, type SleepToolName } from "./tools";

export interface SleepRunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `sleep <args>` and reports how it ended; the signal is the host cancelling the call. */
export type SleepRunner = (args: string[], signal: AbortSignal) => Promise<SleepRunResult>;

export interface SleepMcpOptions {
  run: SleepRunner;
  /** The default project: the folder the server was started in. */
  cwd: string;
  version: string;
}

const HANDOFF_PENDING = 3;

function toolResult(r: SleepRunResult) {
  const out = r.stdout.trim();
  const err = redactText(r.stderr.trim().split("\n").slice(-20).join("\n"));
  const ok = r.code === 0 || r.code === HANDOFF_PENDING;
  const content: Array<{ type: "text"; text: string }> = [];
  if (out) content.push({ type: "text", text: out });
  if (!ok || !out)
    content.push({ type: "text", text: `exit code ${r.code ?? "none (killed)"}${err ? `\n${err}` : ""}` });
  return { content, isError: !ok };
}

export function createSleepMcpServer(o: SleepMcpOptions): McpServer {
  const server = new McpServer({ name: "skillopt-sleep", version: o.version });
  for (const name of Object.keys(SLEEP_TOOLS) as SleepToolName[]) {
    const tool = SLEEP_TOOLS[name];
    server.registerTool(
      name,
      { description: tool.description, inputSchema: tool.input },
      async (input: Record<string, unknown>, extra: { signal: AbortSignal }) =>
        toolResult(await o.run(sleepArgs(name, input, o.cwd), extra.signal)),
    );
  }
  return server;
}

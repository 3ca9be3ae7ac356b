/**
 * OpenCode as a Sleep backend (spec D.10): `opencode run --pure --format json --agent <agent> --title
 * skillopt-sleep --dir <work> [--model M]`, the prompt on stdin, 180 s. Each call defines a throwaway
 * agent (`skillopt-sleep-<32 hex>`, which harvest recognises and skips) whose every permission is
 * denied, disables project config, plugins and session snapshots, and turns off every MCP server the
 * user configured — then checks with `opencode debug config` that all of them really are off before the
 * prompt is sent; if not, the night stops. The answer is read from the JSONL event stream, which must be
 * one session, start and finish a step, and (in a plain call) use no tool.
 */
import type { CliOutput, ExecEnv } from "../../backends/exec";
import { AgentCliClient, CliCallError, exitError, resolveCliBin } from "./agent-cli";
import { childEnv, disableMcp, INSTALL, newAgentName, OPENCODE_TIMEOUT_MS } from "./opencode-setup";
import { parseOpenCodeJsonl, STREAM_ERRORS } from "./opencode-stream";
import { createOpenCodeToolRunner } from "./opencode-tools";
import type { ToolRunner } from "./model";

/** The child environment and agent for one plain run: a deny-all agent, every MCP server off (verified). */
async function prepare(bin: string, source: ExecEnv, work: string): Promise<{ env: ExecEnv; agent: string }> {
  const agent = newAgentName();
  const permission = { "*": "deny" };
  const env = childEnv(source, work, permission);
  await disableMcp(bin, env, work, { snapshot: false, agent: { [agent]: { mode: "primary", permission } } });
  return { env, agent };
}

function parse(out: CliOutput): string {
  if (out.code !== 0) throw exitError("opencode", out);
  const r = parseOpenCodeJsonl(out.stdout);
  if ("error" in r) throw new CliCallError(`opencode ${STREAM_ERRORS[r.error] ?? r.error}`);
  return r.text;
}

export function createOpenCodeClient(o: {
  model: string;
  path: string;
  env: ExecEnv;
  toolReplay: boolean;
  workRoot?: string;
}): { client: AgentCliClient; tools: ToolRunner } {
  const bin = resolveCliBin({
    label: "OpenCode",
    name: "opencode",
    explicit: o.path || o.env.SKILLOPT_SLEEP_OPENCODE_PATH || "",
    setting: "opencode_path",
    flag: "--opencode-path",
    env: o.env,
    install: INSTALL,
  });
  const model = o.model || o.env.SKILLOPT_SLEEP_OPENCODE_MODEL?.trim() || "";
  const tools: ToolRunner = o.toolReplay
    ? createOpenCodeToolRunner({ bin, model, env: o.env, workRoot: o.workRoot })
    : async () => {
        throw new CliCallError(
          "opencode: tool replay is off (opt in with --opencode-tool-replay / opencode_tool_replay); a task that needs a real tool call cannot be replayed",
        );
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
        const args = [
          "run",
          "--pure",
          "--format",
          "json",
          "--agent",
          agent,
          "--title",
          "skillopt-sleep",
          "--dir",
          work,
        ];
        return { args: model ? [...args, "--model", model] : args, stdin: prompt, env };
      },
    },
    o.workRoot,
  );
  return { client, tools };
}

/**
 * Cursor Agent as a Sleep backend (spec D.10): `cursor-agent -p --output-format json --trust --workspace
 * <empty tmp> --mode ask [--model M]`, the prompt on stdin behind the replay sentinel (so harvest skips
 * these sessions), 240 s, one retry for a timeout or an unreadable reply. The child sees an allow-listed
 * environment only, with its own config folder whose permissions deny reads, writes and MCP tools. The
 * answer is the final `result` object. Tool-aware replay is disabled: a task that needs a real tool call
 * stops the night before anything is staged.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CliOutput, ExecEnv } from "../../backends/exec";
import { CURSOR_REPLAY_SENTINEL } from "../harvest";
import { AgentCliClient, CliCallError, resolveCliBin } from "./agent-cli";
import type { ToolRunner } from "./model";

export const CURSOR_TIMEOUT_MS = 240_000;
const INSTALL = "Install it with `curl https://cursor.com/install -fsS | bash` and log in (`cursor-agent login`).";

const ENV_ALLOW = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TMP",
  "TEMP",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "NO_COLOR",
  "CURSOR_API_KEY",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
];
const AUTH_MARKERS = [
  "not authenticated",
  "authentication required",
  "not logged in",
  "please log in",
  "login required",
  "unauthorized",
  "invalid api key",
  "401",
  "403",
];
const CONFIG_MARKERS = [
  "unknown option",
  "invalid option",
  "invalid model",
  "unsupported model",
  "model not found",
  "not available for your account",
  "invalid configuration",
];
export const CURSOR_DENY = ["Read(**)", "Write(**)", "Mcp(*:*)"];

/** The last JSON object with `type: "result"` (the whole stdout, or one of its lines). */
export function cursorResult(raw: string): Record<string, unknown> | null {
  const candidates = [
    raw.trim(),
    ...raw
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.startsWith("{")),
  ].filter(Boolean);
  for (const c of candidates.reverse()) {
    try {
      const o = JSON.parse(c) as unknown;
      if (typeof o === "object" && o !== null && (o as { type?: unknown }).type === "result")
        return o as Record<string, unknown>;
    } catch {
      // not this candidate
    }
  }
  return null;
}

/** The child's configuration folder and environment, inside the run's own folder. */
function isolate(work: string, env: ExecEnv): ExecEnv {
  const config = join(work, "runtime", "config");
  const data = join(work, "runtime", "data");
  mkdirSync(config, { recursive: true });
  mkdirSync(data, { recursive: true });
  const cli = {
    version: 1,
    permissions: { allow: [], deny: CURSOR_DENY },
    approvalMode: "allowlist",
    sandbox: { mode: "disabled", networkAccess: "user_config_only", networkAllowlist: [] },
    attribution: { attributeCommitsToAgent: false, attributePRsToAgent: false },
  };
  writeFileSync(join(config, "cli-config.json"), `${JSON.stringify(cli, null, 2)}\n`);
  const out: ExecEnv = {};
  for (const k of ENV_ALLOW) if (env[k] !== undefined && env[k] !== "") out[k] = env[k];
  return { ...out, CURSOR_CONFIG_DIR: config, CURSOR_DATA_DIR: data };
}

function parse(out: CliOutput): string {
  const detail = out.stderr.trim().slice(0, 300);
  const low = detail.toLowerCase();
  if (AUTH_MARKERS.some((m) => low.includes(m)))
    throw new CliCallError(`cursor-agent: authentication failed: ${detail}`, { fatal: true });
  if (out.code !== 0) {
    if (CONFIG_MARKERS.some((m) => low.includes(m)))
      throw new CliCallError(`cursor-agent: configuration failed: ${detail}`, { fatal: true });
    throw new CliCallError(`cursor-agent exited with code ${out.code ?? out.signal}${detail ? `: ${detail}` : ""}`);
  }
  const result = cursorResult(out.stdout);
  if (result?.is_error === true)
    throw new CliCallError(
      `cursor-agent returned an error result: ${String(result.result ?? result.error ?? detail).slice(0, 300)}`,
    );
  const text = typeof result?.result === "string" ? result.result.trim() : "";
  if (!text)
    throw new CliCallError(`cursor-agent returned no usable JSON result${detail ? `: ${detail}` : ""}`, {
      retryable: true,
    });
  return text;
}

export function createCursorClient(o: { model: string; path: string; env: ExecEnv; workRoot?: string }): {
  client: AgentCliClient;
  tools: ToolRunner;
} {
  const bin = resolveCliBin({
    label: "Cursor Agent",
    name: "cursor-agent",
    explicit: o.path || o.env.SKILLOPT_SLEEP_CURSOR_PATH || "",
    setting: "cursor_path",
    flag: "--cursor-path",
    env: o.env,
    install: INSTALL,
  });
  const model = o.model || o.env.SKILLOPT_SLEEP_CURSOR_MODEL?.trim() || "";
  const client = new AgentCliClient(
    {
      label: "cursor",
      bin,
      model,
      timeoutMs: CURSOR_TIMEOUT_MS,
      retries: 1,
      installHint: INSTALL,
      parse,
      invocation: (prompt, work) => {
        const workspace = join(work, "workspace");
        mkdirSync(workspace);
        const args = ["-p", "--output-format", "json", "--trust", "--workspace", workspace, "--mode", "ask"];
        return {
          args: model ? [...args, "--model", model] : args,
          stdin: `${CURSOR_REPLAY_SENTINEL}\n\n${prompt}`,
          env: isolate(work, o.env),
          cwd: workspace,
        };
      },
    },
    o.workRoot,
  );
  const tools: ToolRunner = async () => {
    throw new CliCallError(
      "cursor: tool-aware replay is disabled (the Cursor Agent permission boundary is not validated); remove tool_called checks or use another backend",
      { fatal: true },
    );
  };
  return { client, tools };
}

/**
 * What every OpenCode run shares (spec D.10): the child environment, reading `opencode debug config`,
 * turning every MCP server off and checking that it is, and the throwaway agent's name.
 */
import { randomBytes } from "node:crypto";
import { runCli, type ExecEnv } from "../../backends/exec";
import { CliCallError, exitError } from "./agent-cli";

export const OPENCODE_TIMEOUT_MS = 180_000;
export const INSTALL = "Install it with `npm i -g opencode-ai`.";

export function childEnv(env: ExecEnv, work: string, permission: Record<string, string>): ExecEnv {
  const out: ExecEnv = Object.fromEntries(
    Object.entries(env).filter(
      ([k, v]) => v !== undefined && v !== "" && k !== "OPENCODE_DIRECT_TRACE" && k !== "OLDPWD",
    ),
  );
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

export type Config = Record<string, unknown>;

/** `opencode debug config --pure` → the resolved configuration and, per MCP server, whether it is off. */
export async function readMcp(
  bin: string,
  env: ExecEnv,
  work: string,
  stage: string,
): Promise<{ config: Config; off: Record<string, boolean> }> {
  const out = await runCli({
    label: `opencode ${stage}`,
    bin,
    args: ["debug", "config", "--pure"],
    cwd: work,
    env,
    stdin: "",
    timeoutMs: OPENCODE_TIMEOUT_MS,
    installHint: INSTALL,
  });
  if (out.code !== 0)
    throw new CliCallError(`opencode ${stage}: ${exitError("opencode debug config", out).message}`, { fatal: true });
  let config: unknown;
  try {
    config = JSON.parse(out.stdout);
  } catch {
    config = null;
  }
  if (typeof config !== "object" || config === null || Array.isArray(config))
    throw new CliCallError(`opencode ${stage}: 'opencode debug config' did not print a JSON object`, { fatal: true });
  const mcp = (config as Config).mcp ?? {};
  if (
    typeof mcp !== "object" ||
    mcp === null ||
    Array.isArray(mcp) ||
    Object.values(mcp).some((v) => typeof v !== "object" || v === null)
  ) {
    throw new CliCallError(`opencode ${stage}: the MCP configuration is not an object of servers`, { fatal: true });
  }
  return {
    config: config as Config,
    off: Object.fromEntries(
      Object.entries(mcp as Record<string, { enabled?: unknown }>).map(([k, v]) => [k, v.enabled === false]),
    ),
  };
}

/**
 * Turns off every MCP server OpenCode would load (adding them, off, to OPENCODE_CONFIG_CONTENT) and checks
 * that they and session snapshots really are off; otherwise the night stops before a prompt is sent.
 */
export async function disableMcp(bin: string, env: ExecEnv, work: string, config: Config): Promise<void> {
  env.OPENCODE_CONFIG_CONTENT = JSON.stringify(config);
  const found = await readMcp(bin, env, work, "MCP discovery");
  env.OPENCODE_CONFIG_CONTENT = JSON.stringify({
    ...config,
    mcp: Object.fromEntries(
      Object.keys(found.off)
        .sort()
        .map((k) => [k, { enabled: false }]),
    ),
  });
  const check = await readMcp(bin, env, work, "MCP verification");
  const on = Object.entries(check.off)
    .filter(([, off]) => !off)
    .map(([k]) => k);
  if (on.length > 0)
    throw new CliCallError(
      `opencode: could not turn off the MCP server(s) ${on.join(", ")}; refusing to send prompts`,
      { fatal: true },
    );
  if (check.config.snapshot !== false)
    throw new CliCallError("opencode: could not turn off session snapshots; refusing to send prompts", { fatal: true });
}

export function newAgentName(): string {
  return `skillopt-sleep-${randomBytes(16).toString("hex")}`;
}

/**
 * Pi coding agent as a Sleep backend (spec D.10): `pi -p --no-session --no-tools --no-skills
 * --no-context-files --no-extensions --no-prompt-templates --no-themes --system-prompt "" --append-system-prompt ""
 * [--model M]`, the prompt on stdin, a clean temporary cwd, `PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1
 * PI_TELEMETRY=0`, 180 s. A non-zero exit or an empty answer is a failed call (recorded, never cached);
 * stdout of a failed run is never taken as an answer. Tool tasks use the marker convention.
 */
import type { CliOutput, ExecEnv } from "../../backends/exec";
import { AgentCliClient, CliCallError, exitError, resolveCliBin } from "./agent-cli";

export const PI_TIMEOUT_MS = 180_000;
const INSTALL = "Install it with `npm i -g @mariozechner/pi-coding-agent`.";

export const PI_ARGS = [
  "-p",
  "--no-session",
  "--no-tools",
  "--no-skills",
  "--no-context-files",
  "--no-extensions",
  "--no-prompt-templates",
  "--no-themes",
  "--system-prompt",
  "",
  "--append-system-prompt",
  "",
];

function parse(out: CliOutput): string {
  if (out.code !== 0) throw exitError("pi", out);
  const text = out.stdout.trim();
  if (!text)
    throw new CliCallError(
      `pi returned an empty response${out.stderr.trim() ? `: ${out.stderr.trim().split("\n").pop()}` : ""}`,
    );
  return text;
}

export function createPiClient(o: { model: string; path: string; env: ExecEnv; workRoot?: string }): AgentCliClient {
  const bin = resolveCliBin({
    label: "Pi",
    name: "pi",
    explicit: o.path,
    setting: "pi_path",
    flag: "--pi-path",
    env: o.env,
    install: INSTALL,
  });
  const model = o.model || o.env.SKILLOPT_SLEEP_PI_MODEL?.trim() || "";
  const env: ExecEnv = { ...o.env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
  const args = model ? [...PI_ARGS, "--model", model] : PI_ARGS;
  return new AgentCliClient(
    {
      label: "pi",
      bin,
      model,
      timeoutMs: PI_TIMEOUT_MS,
      retries: 0,
      installHint: INSTALL,
      parse,
      invocation: (prompt) => ({ args, stdin: prompt, env }),
    },
    o.workRoot,
  );
}

/**
 * GitHub Copilot CLI as a Sleep backend (spec D.10): `copilot -p <prompt> --output-format json --stream
 * off --no-color --log-level none --allow-all-tools --available-tools <COPILOT_AVAILABLE_TOOLS|bash> -C
 * <tmp> [--disable-builtin-mcps --no-custom-instructions] [--model M]`, 240 s. The answer is the
 * `assistant.message` events of its JSONL stream, joined. Each run gets an isolated `COPILOT_HOME` (no
 * user MCP servers start; `SKILLOPT_SLEEP_COPILOT_HOME` picks the folder, `SKILLOPT_SLEEP_COPILOT_FULL_ENV=1`
 * uses the user's own setup). Tool replay runs the same command in a folder of logging shims.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, type CliOutput, type ExecEnv } from "../../backends/exec";
import { AgentCliClient, CliCallError, envWithout, exitError, resolveCliBin, type CliDriver } from "./agent-cli";
import type { ToolRunner } from "./model";
import { toolHint, writeShims } from "./tool-replay";

export const COPILOT_TIMEOUT_MS = 240_000;
const INSTALL = "Install it with `npm i -g @github/copilot` and log in (`copilot`, then /login).";
/** Linux refuses a single argument longer than this (MAX_ARG_STRLEN); the prompt travels in argv. */
const MAX_ARG_CHARS = 128 * 1024 - 1;

export interface CopilotOptions {
  model: string;
  env: ExecEnv;
  /** Parent of the temporary folders (tests). */
  workRoot?: string;
}

/** The concatenated `assistant.message` contents of a Copilot JSONL stream; bad lines are skipped. */
export function parseCopilotJsonl(raw: string): string {
  const parts: string[] = [];
  for (const line of raw.split("\n")) {
    const t = line.trim();
    if (!t.startsWith("{")) continue;
    let event: unknown;
    try {
      event = JSON.parse(t);
    } catch {
      continue; // one bad line loses only its own text
    }
    const e = event as { type?: unknown; data?: { content?: unknown } | null };
    if (e?.type !== "assistant.message" || typeof e.data !== "object" || e.data === null) continue;
    if (typeof e.data.content === "string" && e.data.content !== "") parts.push(e.data.content);
  }
  return parts.join("\n").trim();
}

function settings(o: CopilotOptions) {
  const bin = resolveCliBin({
    label: "GitHub Copilot",
    name: "copilot",
    explicit: o.env.SKILLOPT_SLEEP_COPILOT_PATH ?? "",
    setting: "SKILLOPT_SLEEP_COPILOT_PATH",
    env: o.env,
    install: INSTALL,
  });
  const model = o.model || o.env.SKILLOPT_SLEEP_COPILOT_MODEL?.trim() || "";
  const fullEnv = o.env.SKILLOPT_SLEEP_COPILOT_FULL_ENV === "1";
  const home = fullEnv
    ? ""
    : o.env.SKILLOPT_SLEEP_COPILOT_HOME?.trim() || join(o.workRoot ?? tmpdir(), "skillopt_sleep_copilot_home");
  if (home) mkdirSync(home, { recursive: true });
  const env: ExecEnv = { ...envWithout(o.env, ["COPILOT_ALLOW_ALL"]), ...(home ? { COPILOT_HOME: home } : {}) };
  const args = (prompt: string, work: string) => {
    if (prompt.length > MAX_ARG_CHARS)
      throw new CliCallError(
        `copilot: the prompt (${prompt.length} characters) is longer than one command-line argument may be`,
      );
    const a = [
      "-p",
      prompt,
      "--output-format",
      "json",
      "--stream",
      "off",
      "--no-color",
      "--log-level",
      "none",
      "--allow-all-tools",
      "--available-tools",
      o.env.COPILOT_AVAILABLE_TOOLS?.trim() || "bash",
      "-C",
      work,
    ];
    if (!fullEnv) a.push("--disable-builtin-mcps", "--no-custom-instructions");
    return model ? [...a, "--model", model] : a;
  };
  return { bin, model, env, args };
}

function parse(out: CliOutput): string {
  if (out.code !== 0) throw exitError("copilot", out);
  const text = parseCopilotJsonl(out.stdout);
  if (!text) throw new CliCallError("copilot: the reply held no assistant message");
  return text;
}

export function createCopilotClient(o: CopilotOptions): { client: AgentCliClient; tools: ToolRunner } {
  const s = settings(o);
  const driver: CliDriver = {
    label: "copilot",
    bin: s.bin,
    model: s.model,
    timeoutMs: COPILOT_TIMEOUT_MS,
    retries: 0,
    installHint: INSTALL,
    parse,
    invocation: (prompt, work) => ({ args: s.args(prompt, work), stdin: "", env: s.env }),
  };
  const tools: ToolRunner = async (prompt, names) => {
    const work = mkdtempSync(join(o.workRoot ?? tmpdir(), "skillopt-sleep-copilot-tools-"));
    const log = join(work, ".tool-calls.log");
    try {
      writeShims(work, names, log);
      const full = `${toolHint(names)}\n\n${prompt}`;
      const out = await runCli({
        label: "copilot tool replay",
        bin: s.bin,
        args: s.args(full, work),
        cwd: work,
        env: s.env,
        stdin: "",
        timeoutMs: COPILOT_TIMEOUT_MS,
        installHint: INSTALL,
      });
      const response = parse(out);
      let logged = "";
      try {
        logged = readFileSync(log, "utf8");
      } catch {
        logged = ""; // no tool was called
      }
      const called = new Set(logged.split("\n").map((l) => l.trim()));
      return {
        response,
        called: names.filter((t) => called.has(t)),
        tokens: Math.floor(full.length / 4) + Math.floor(response.length / 4),
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
  return { client: new AgentCliClient(driver, o.workRoot), tools };
}

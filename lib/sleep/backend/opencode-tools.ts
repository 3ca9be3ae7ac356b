/**
 * OpenCode tool replay, opt-in (`opencode_tool_replay`, spec D.10): the run folder becomes a small
 * project of its own (a `.git` boundary so OpenCode looks no further up, offline package metadata) with
 * one synthetic JavaScript tool per required tool, each under a random id, taking exactly
 * `{"query":"synthetic"}` and returning a fixed line. The throwaway agent may use only those ids; before
 * the prompt is sent, `opencode debug agent` must show exactly that tool set enabled and every MCP server
 * must be off. The tools called are read from the completed tool events, never from what the model says.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, type ExecEnv } from "../../backends/exec";
import { CliCallError, exitError } from "./agent-cli";
import type { ToolRunner } from "./model";
import { childEnv, disableMcp, newAgentName, OPENCODE_TIMEOUT_MS } from "./opencode-setup";
import { parseOpenCodeJsonl, STREAM_ERRORS, SYNTHETIC_QUERY, SYNTHETIC_RESULT } from "./opencode-stream";

const TOOL = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$/;

/** The logical tool names, checked and de-duplicated (case-insensitively), 1 to 32 of them. */
export function replayToolNames(tools: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of tools) {
    const name = raw.trim();
    if (!TOOL.test(name)) throw new CliCallError(`opencode tool replay: '${raw}' is not a usable tool name`);
    if (!seen.has(name.toLowerCase())) out.push(name);
    seen.add(name.toLowerCase());
  }
  if (out.length === 0 || out.length > 32)
    throw new CliCallError(`opencode tool replay: needs 1 to 32 tools (got ${out.length})`);
  return out;
}

function toolSource(logical: string): string {
  return [
    `const query = ${JSON.stringify(SYNTHETIC_QUERY)};`,
    `const result = ${JSON.stringify(SYNTHETIC_RESULT)};`,
    "export default {",
    `  description: ${JSON.stringify(`Controlled stand-in for the ${logical} tool.`)},`,
    `  args: { query: { type: "string", description: "Always exactly ${SYNTHETIC_QUERY}." } },`,
    "  async execute(args) {",
    '    if (args === null || typeof args !== "object" || Object.keys(args).length !== 1 || args.query !== query) throw new Error("Invalid synthetic replay input.");',
    "    return result;",
    "  },",
    "};",
    "",
  ].join("\n");
}

/** Lays out the replay project in `work`; returns logical name → random tool id. */
export function prepareReplayProject(work: string, tools: readonly string[]): Map<string, string> {
  const git = join(work, ".git");
  mkdirSync(join(git, "objects"), { recursive: true });
  mkdirSync(join(git, "refs", "heads"), { recursive: true });
  writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n", { flag: "wx" });
  writeFileSync(join(git, "config"), "[core]\n\trepositoryformatversion = 0\n\tfilemode = false\n\tbare = false\n", {
    flag: "wx",
  });
  writeFileSync(join(git, "opencode"), `skillopt-sleep-${randomBytes(32).toString("hex")}\n`, { flag: "wx" });
  const config = join(work, ".opencode");
  mkdirSync(join(config, "tools"), { recursive: true });
  mkdirSync(join(config, "node_modules"), { recursive: true });
  const pkg = { name: "skillopt-opencode-replay", dependencies: { "@opencode-ai/plugin": "0.0.0" } };
  writeFileSync(join(config, "package.json"), JSON.stringify({ ...pkg, private: true }), { flag: "wx" });
  writeFileSync(
    join(config, "package-lock.json"),
    JSON.stringify({ name: pkg.name, lockfileVersion: 3, requires: true, packages: { "": pkg } }),
    { flag: "wx" },
  );
  const ids = new Map<string, string>();
  for (const name of tools) {
    const id = `skillopt_replay_${randomBytes(16).toString("hex")}`;
    ids.set(name, id);
    writeFileSync(join(config, "tools", `${id}.js`), toolSource(name), { flag: "wx" });
  }
  return ids;
}

function toolEnv(source: ExecEnv, work: string, permission: Record<string, string>): ExecEnv {
  const env = childEnv(source, work, permission);
  for (const k of Object.keys(env))
    if (/^(GIT_(COMMON_DIR|DIR|OBJECT_DIRECTORY|WORK_TREE)|NPM_CONFIG_.*)$/i.test(k)) delete env[k];
  return {
    ...env,
    OPENCODE_DISABLE_PROJECT_CONFIG: "0", // the replay project's own tools must load
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    npm_config_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_cache: join(work, ".npm-cache"),
  };
}

async function verifyTools(
  bin: string,
  env: ExecEnv,
  work: string,
  agent: string,
  expected: Set<string>,
): Promise<void> {
  const out = await runCli({
    label: "opencode tool check",
    bin,
    args: ["debug", "agent", agent, "--pure"],
    cwd: work,
    env,
    stdin: "",
    timeoutMs: OPENCODE_TIMEOUT_MS,
    installHint: "",
  });
  if (out.code !== 0)
    throw new CliCallError(`opencode tool check: ${exitError("opencode debug agent", out).message}`, { fatal: true });
  let tools: unknown;
  try {
    tools = (JSON.parse(out.stdout) as { tools?: unknown }).tools;
  } catch {
    tools = null;
  }
  if (typeof tools !== "object" || tools === null || Object.values(tools).some((v) => typeof v !== "boolean"))
    throw new CliCallError("opencode tool check: 'opencode debug agent' did not list the agent's tools", {
      fatal: true,
    });
  const enabled = Object.entries(tools as Record<string, boolean>)
    .filter(([, on]) => on)
    .map(([k]) => k)
    .sort();
  if (enabled.join(",") !== [...expected].sort().join(","))
    throw new CliCallError(
      `opencode tool check: the replay agent would have tools ${enabled.join(", ") || "(none)"}, not only the synthetic ones; refusing to replay`,
      { fatal: true },
    );
}

export function createOpenCodeToolRunner(o: {
  bin: string;
  model: string;
  env: ExecEnv;
  workRoot?: string;
}): ToolRunner {
  return async (prompt, requested) => {
    const names = replayToolNames(requested);
    const work = mkdtempSync(join(o.workRoot ?? tmpdir(), "skillopt-sleep-opencode-tools-"));
    try {
      const ids = prepareReplayProject(work, names);
      const expected = new Set(ids.values());
      const permission: Record<string, string> = {
        "*": "deny",
        ...Object.fromEntries([...expected].map((id) => [id, "allow"])),
      };
      const agent = newAgentName();
      const agentConfig = { mode: "primary", permission, ...(o.model ? { model: o.model } : {}) };
      const env = toolEnv(o.env, work, permission);
      await disableMcp(o.bin, env, work, {
        share: "disabled",
        autoupdate: false,
        formatter: false,
        lsp: false,
        snapshot: false,
        permission,
        agent: { [agent]: agentConfig },
      });
      await verifyTools(o.bin, env, work, agent, expected);
      const lines = [...ids].map(
        ([name, id]) => `- "${name}" is available as \`${id}\`; call it with {"query":"${SYNTHETIC_QUERY}"}.`,
      );
      const full = [
        "The tools below are controlled stand-ins that always return the same line. Call one only when the task, the skill or the memory requires that tool; then call its id rather than saying you did.",
        "",
        "# Tools",
        ...lines,
        "",
        prompt,
      ].join("\n");
      const args = [
        "run",
        "--pure",
        "--format",
        "json",
        "--agent",
        agent,
        "--title",
        "skillopt-sleep-tool-replay",
        "--dir",
        work,
      ];
      const out = await runCli({
        label: "opencode tool replay",
        bin: o.bin,
        args: o.model ? [...args, "--model", o.model] : args,
        cwd: work,
        env,
        stdin: full,
        timeoutMs: OPENCODE_TIMEOUT_MS,
        installHint: "",
      });
      if (out.code !== 0) throw exitError("opencode tool replay", out);
      const r = parseOpenCodeJsonl(out.stdout, expected);
      if ("error" in r) throw new CliCallError(`opencode tool replay ${STREAM_ERRORS[r.error] ?? r.error}`);
      const called = new Set(r.called);
      return {
        response: r.text,
        called: names.filter((n) => called.has(ids.get(n)!)),
        tokens: Math.floor(full.length / 4) + Math.floor(r.text.length / 4),
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
}

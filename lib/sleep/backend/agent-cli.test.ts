import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PromptRegistry } from "../prompts";
import { removeTempDirs, sandbox, tempDir, testConfig } from "../test-helpers";
import type { TaskRecord } from "../types";
import { buildSleepBackend, resolveSleepBackend } from "./build";
import { parseCopilotJsonl } from "./copilot";
import { cursorResult } from "./cursor";
import { prepareReplayProject, replayToolNames } from "./opencode-tools";
import { PI_ARGS } from "./pi";
import { fakeCli } from "./testing-fake-cli";
import { SleepBackendError } from "./types";

afterAll(removeTempDirs);

const build = (over: Record<string, unknown>, env: Record<string, string | undefined>) => {
  const s = sandbox();
  return buildSleepBackend(testConfig(s, over), {
    env: { HOME: s.home, ...env },
    prompts: new PromptRegistry(null),
    handoffDir: join(s.root, "handoff"),
  }).backend;
};
const ask = (b: ReturnType<typeof build>, prompt = "Say hi.") => b.call(prompt, { maxTokens: 100, kind: "miner" });
const task = {
  id: "t1",
  intent: "Find the paper.",
  contextExcerpt: "",
  system: "",
  referenceKind: "rule",
  reference: "",
  judge: { checks: [] },
} as unknown as TaskRecord;

const msg = (content: unknown) => JSON.stringify({ type: "assistant.message", data: { content } });

describe("backend names", () => {
  it("accepts the CLI names and the original's aliases", () => {
    const names = [
      "copilot",
      "github_copilot",
      "copilot_cli",
      "gh_copilot",
      "cursor",
      "cursor_agent",
      "cursor_cli",
      "pi",
      "pi_cli",
      "pi_coding_agent",
      "opencode",
    ];
    expect(names.map((n) => resolveSleepBackend(n, "backend"))).toEqual([
      "copilot",
      "copilot",
      "copilot",
      "copilot",
      "cursor",
      "cursor",
      "cursor",
      "pi",
      "pi",
      "pi",
      "opencode",
    ]);
  });
});

describe("copilot", () => {
  it("passes the prompt with -p and the spec's flags in an isolated COPILOT_HOME, and joins the assistant messages", async () => {
    const f = fakeCli("copilot", {
      "*": [{ stdout: `${msg("Hello")}\nnot json\n{"type":"tool.call"}\n${msg(5)}\n${msg("world")}\n` }],
    });
    const b = build({ backend: "copilot", model: "gpt-5" }, { PATH: f.PATH, COPILOT_ALLOW_ALL: "1", GH_TOKEN: "t" });
    expect(await ask(b, "Say hi.")).toBe("Hello\nworld");
    const [c] = f.calls();
    expect(c!.argv).toEqual([
      "-p",
      "Say hi.",
      "--output-format",
      "json",
      "--stream",
      "off",
      "--no-color",
      "--log-level",
      "none",
      "--allow-all-tools",
      "--available-tools",
      "bash",
      "-C",
      c!.cwd,
      "--disable-builtin-mcps",
      "--no-custom-instructions",
      "--model",
      "gpt-5",
    ]);
    expect(c!.stdin).toBe("");
    expect(c!.env.COPILOT_HOME).toMatch(/skillopt_sleep_copilot_home$/);
    expect(c!.env.COPILOT_ALLOW_ALL).toBeUndefined();
    expect(c!.env.GH_TOKEN).toBe("t");
    expect(existsSync(c!.cwd)).toBe(false); // the temp folder is removed
  });

  it("SKILLOPT_SLEEP_COPILOT_FULL_ENV=1 keeps the user's setup; COPILOT_AVAILABLE_TOOLS and the model env are honoured", async () => {
    const f = fakeCli("copilot", { "*": [{ stdout: msg("ok") }] });
    const b = build(
      { backend: "copilot" },
      {
        PATH: f.PATH,
        SKILLOPT_SLEEP_COPILOT_FULL_ENV: "1",
        COPILOT_AVAILABLE_TOOLS: "shell(ls)",
        SKILLOPT_SLEEP_COPILOT_MODEL: "m2",
      },
    );
    await ask(b);
    const [c] = f.calls();
    expect(c!.argv).not.toContain("--disable-builtin-mcps");
    expect(c!.argv.slice(-6)).toEqual(["--available-tools", "shell(ls)", "-C", c!.cwd, "--model", "m2"]);
    expect(c!.env.COPILOT_HOME).toBeUndefined();
  });

  it("tool replay reads the tools actually run from the shims' log", async () => {
    const f = fakeCli("copilot", { "*": [{ stdout: msg("found it"), runTool: "search" }] });
    const b = build({ backend: "copilot" }, { PATH: f.PATH });
    const r = await b.attemptWithTools(task, "Search first.", "", ["search", "browse"]);
    expect(r).toEqual({ response: "found it", called: ["search"] });
    const [c] = f.calls();
    expect(c!.files.sort()).toEqual(["browse", "search"]);
    expect(c!.argv[1]).toMatch(/^You have shell tools in the current directory: \.\/search, \.\/browse\./);
  });

  it("a failed run is one failed call (empty answer, recorded error); a missing CLI names it and its setting", async () => {
    const f = fakeCli("copilot", { "*": [{ stderr: "boom\n", code: 3 }] });
    const b = build({ backend: "copilot" }, { PATH: f.PATH });
    expect(await ask(b)).toBe("");
    expect(b.lastCallError).toBe("copilot (optimizer): copilot exited with code 3: boom");
    expect(() => build({ backend: "copilot" }, { PATH: join(f.dir, "nothing") })).toThrow(
      "backend: the GitHub Copilot CLI 'copilot' was not found on PATH. Install it with `npm i -g @github/copilot` and log in (`copilot`, then /login). Or set SKILLOPT_SLEEP_COPILOT_PATH to its location.",
    );
  });

  it("parseCopilotJsonl skips malformed lines and non-object data", () => {
    expect(parseCopilotJsonl(`${msg("a")}\n{"type":"assistant.message","data":"x"}\n{bad\n[1]\n${msg("b")}`)).toBe(
      "a\nb",
    );
  });
});

describe("cursor", () => {
  const result = (text: string, extra = {}) => JSON.stringify({ type: "result", result: text, ...extra });

  it("runs ask mode in an empty workspace with the replay sentinel, an allow-listed env and a deny-all config", async () => {
    const f = fakeCli("cursor-agent", { "*": [{ stdout: `{"type":"system"}\n${result("  the answer ")}\n` }] });
    const b = build(
      { backend: "cursor", model: "sonnet-4" },
      { PATH: f.PATH, OPENAI_API_KEY: "leak", CURSOR_API_KEY: "ck" },
    );
    expect(await ask(b, "Q?")).toBe("the answer");
    const [c] = f.calls();
    expect(c!.argv).toEqual([
      "-p",
      "--output-format",
      "json",
      "--trust",
      "--workspace",
      c!.cwd,
      "--mode",
      "ask",
      "--model",
      "sonnet-4",
    ]);
    expect(c!.files).toEqual([]);
    expect(c!.stdin).toBe("<skillopt_sleep_internal_replay_v1>\n\nQ?");
    expect(c!.env.OPENAI_API_KEY).toBeUndefined();
    expect(c!.env.CURSOR_API_KEY).toBe("ck");
    expect(
      Object.keys(c!.env)
        .filter((k) => k.startsWith("CURSOR_"))
        .sort(),
    ).toEqual(["CURSOR_API_KEY", "CURSOR_CONFIG_DIR", "CURSOR_DATA_DIR"]);
  });

  it("the child's config denies reads, writes and MCP", async () => {
    // the config folder is removed with the run; the fake reads it while it exists
    const f = fakeCli("cursor-agent", {
      "*": [{ stdout: result("x"), readFile: "$CURSOR_CONFIG_DIR/cli-config.json" }],
    });
    const b = build({ backend: "cursor" }, { PATH: f.PATH });
    await ask(b);
    const cfg = JSON.parse(f.calls()[0]!.read!);
    expect(cfg.permissions).toEqual({ allow: [], deny: ["Read(**)", "Write(**)", "Mcp(*:*)"] });
    expect(cfg.approvalMode).toBe("allowlist");
    const dir = f.calls()[0]!.env.CURSOR_CONFIG_DIR!;
    expect(dir).toMatch(/runtime\/config$/);
    expect(existsSync(dir)).toBe(false);
  });

  it("retries once when the reply has no result, then gives up as one failed call", async () => {
    const f = fakeCli("cursor-agent", { "*": [{ stdout: "garbage" }, { stdout: result("second time") }] });
    const b = build({ backend: "cursor" }, { PATH: f.PATH });
    expect(await ask(b)).toBe("second time");
    expect(f.calls()).toHaveLength(2);
    f.setScript({ "*": [{ stdout: result("nope", { is_error: true }) }] });
    expect(await ask(b, "other")).toBe("");
    expect(b.lastCallError).toMatch(/cursor-agent returned an error result: nope/);
  });

  it("an authentication failure and any tool task stop the night", async () => {
    const f = fakeCli("cursor-agent", { "*": [{ stderr: "Error: not logged in\n", code: 1 }] });
    const b = build({ backend: "cursor" }, { PATH: f.PATH });
    await expect(ask(b)).rejects.toThrow(SleepBackendError);
    await expect(ask(b, "x")).rejects.toThrow(/cursor-agent: authentication failed: Error: not logged in/);
    await expect(b.attemptWithTools(task, "", "", ["search"])).rejects.toThrow(/tool-aware replay is disabled/);
    expect(() => build({ backend: "cursor", cursor_path: join(f.dir, "missing") }, { PATH: f.PATH })).toThrow(
      /cursor_path: the Cursor Agent CLI '.*missing' is not an executable file/,
    );
  });

  it("cursorResult takes the last result object", () => {
    expect(cursorResult(`{"type":"result","result":"a"}\n{"type":"result","result":"b"}`)).toEqual({
      type: "result",
      result: "b",
    });
    expect(cursorResult("no json")).toBeNull();
  });
});

describe("pi", () => {
  it("sends the prompt on stdin with every discovery switch off and the offline env", async () => {
    const f = fakeCli("pi", { "*": [{ stdout: "\nanswer from pi\n" }] });
    const b = build({ backend: "pi", model: "zai/glm" }, { PATH: f.PATH });
    expect(await ask(b, "Prompt body")).toBe("answer from pi");
    const [c] = f.calls();
    expect(c!.argv).toEqual([...PI_ARGS, "--model", "zai/glm"]);
    expect(PI_ARGS).toEqual([
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
    ]);
    expect(c!.stdin).toBe("Prompt body");
    expect(c!.env).toMatchObject({ PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" });
    expect(c!.files).toEqual([]);
  });

  it("an empty answer or a failed run is a recorded error, never an answer (stdout of a failed run included)", async () => {
    const f = fakeCli("pi", { "*": [{ stdout: "   \n", stderr: "no model configured\n" }] });
    const b = build({ backend: "pi_cli", pi_path: f.path }, { PATH: dirname(process.execPath) });
    expect(await ask(b)).toBe("");
    expect(b.lastCallError).toBe("pi (optimizer): pi returned an empty response: no model configured");
    f.setScript({ "*": [{ stdout: "looks like an answer", code: 2 }] });
    expect(await ask(b, "again")).toBe("");
    expect(b.lastCallError).toMatch(/pi exited with code 2/);
    expect(() => build({ backend: "pi" }, { PATH: f.dir })).toThrow(
      /the Pi CLI 'pi' was not found on PATH.*Or set pi_path \(--pi-path\) to its location/,
    );
  });
});

describe("opencode", () => {
  const ev = (type: string, part: Record<string, unknown>, session = "s1") =>
    JSON.stringify({ type, sessionID: session, part });
  const stream = (...texts: string[]) =>
    [
      ev("step_start", { type: "step-start" }),
      ...texts.map((t) => ev("text", { type: "text", text: t })),
      ev("step_finish", { type: "step-finish" }),
    ].join("\n");

  it("turns every MCP server off, verifies it, then runs a deny-all throwaway agent", async () => {
    const debug = [
      { stdout: JSON.stringify({ mcp: { github: { enabled: true }, local: {} } }) },
      { stdout: JSON.stringify({ snapshot: false, mcp: { github: { enabled: false }, local: { enabled: false } } }) },
    ];
    const f = fakeCli("opencode", { debug, run: [{ stdout: stream("Hi", "there") }] });
    const b = build({ backend: "opencode", model: "anthropic/claude" }, { PATH: f.PATH, OPENCODE_DIRECT_TRACE: "1" });
    expect(await ask(b, "Ask")).toBe("Hi\nthere");
    const [d1, d2, run] = f.calls();
    expect(d1!.argv).toEqual(["debug", "config", "--pure"]);
    const content = JSON.parse(d2!.env.OPENCODE_CONFIG_CONTENT!);
    expect(content.mcp).toEqual({ github: { enabled: false }, local: { enabled: false } });
    expect(content.snapshot).toBe(false);
    const agent = run!.argv[run!.argv.indexOf("--agent") + 1]!;
    expect(agent).toMatch(/^skillopt-sleep-[0-9a-f]{32}$/);
    expect(content.agent[agent]).toEqual({ mode: "primary", permission: { "*": "deny" } });
    expect(run!.argv).toEqual([
      "run",
      "--pure",
      "--format",
      "json",
      "--agent",
      agent,
      "--title",
      "skillopt-sleep",
      "--dir",
      run!.cwd,
      "--model",
      "anthropic/claude",
    ]);
    expect(run!.stdin).toBe("Ask");
    expect(run!.env).toMatchObject({
      OPENCODE_PERMISSION: '{"*":"deny"}',
      OPENCODE_DISABLE_PROJECT_CONFIG: "1",
      OPENCODE_PURE: "1",
    });
    expect(run!.env.OPENCODE_DIRECT_TRACE).toBeUndefined();
  });

  it("stops the night when an MCP server stays on; a tool call or a broken stream is one failed call", async () => {
    const f = fakeCli("opencode", {
      debug: [{ stdout: JSON.stringify({ snapshot: false, mcp: { github: { enabled: true } } }) }],
      run: [{ stdout: stream("x") }],
    });
    const b = build({ backend: "opencode" }, { PATH: f.PATH });
    await expect(ask(b)).rejects.toThrow(/could not turn off the MCP server\(s\) github; refusing to send prompts/);
    expect(f.calls().some((c) => c.argv[0] === "run")).toBe(false);

    const ok = JSON.stringify({ snapshot: false });
    const tool = [
      ev("step_start", { type: "step-start" }),
      ev("tool_use", { type: "tool", tool: "bash", state: {} }),
      ev("step_finish", { type: "step-finish" }),
    ].join("\n");
    const g = fakeCli("opencode", {
      debug: [{ stdout: ok }],
      run: [
        { stdout: tool },
        { stdout: `${ev("step_start", { type: "step-start" })}\n${ev("text", { type: "text", text: "a" }, "s2")}` },
        { stdout: ev("text", { type: "text", text: "cut" }) },
      ],
    });
    const c = build({ backend: "opencode" }, { PATH: g.PATH });
    expect(await ask(c, "1")).toBe("");
    expect(c.lastCallError).toMatch(/opencode tried to use a tool/);
    expect(await ask(c, "2")).toBe("");
    expect(c.lastCallError).toMatch(/opencode returned events of more than one session/);
    expect(await ask(c, "3")).toBe("");
    expect(c.lastCallError).toMatch(/opencode returned an incomplete stream/);
  });

  it("opt-in tool replay: synthetic tools under random ids, the agent's tool set verified, calls read from the stream", async () => {
    const cfg = { stdout: JSON.stringify({ snapshot: false, mcp: {} }) };
    const agentTools = { stdout: JSON.stringify({ tools: { __TOOL__: true, bash: false, read: false } }) };
    const toolUse = ev("tool_use", {
      type: "tool",
      tool: "__TOOL__",
      state: { status: "completed", input: { query: "synthetic" }, output: "Synthetic replay result available." },
    });
    const replay = [
      ev("step_start", { type: "step-start" }),
      ev("text", { type: "text", text: "let me look" }),
      toolUse,
      ev("text", { type: "text", text: "Answer after search" }),
      ev("step_finish", { type: "step-finish" }),
    ].join("\n");
    const f = fakeCli("opencode", { debug: [cfg, cfg, agentTools], run: [{ stdout: replay }] });
    const b = build({ backend: "opencode", opencode_tool_replay: true }, { PATH: f.PATH, GIT_DIR: "/elsewhere/.git" });
    expect(await b.attemptWithTools(task, "Always search first.", "", ["search"])).toEqual({
      response: "Answer after search",
      called: ["search"],
    });
    const calls = f.calls();
    expect(calls.map((c) => c.argv.slice(0, 2).join(" "))).toEqual([
      "debug config",
      "debug config",
      "debug agent",
      "run --pure",
    ]);
    const run = calls[3]!;
    expect(run.files.sort()).toEqual([".git", ".opencode"]);
    const id = /`(skillopt_replay_[0-9a-f]{32})`/.exec(run.stdin)![1]!;
    expect(run.stdin).toContain(`- "search" is available as \`${id}\`; call it with {"query":"synthetic"}.`);
    expect(run.stdin).toContain("Always search first.");
    expect(JSON.parse(run.env.OPENCODE_PERMISSION!)).toEqual({ "*": "deny", [id]: "allow" });
    expect(run.env.OPENCODE_DISABLE_PROJECT_CONFIG).toBe("0");
    expect(run.env.GIT_DIR).toBeUndefined();
    expect(calls[2]!.argv).toEqual(["debug", "agent", run.argv[run.argv.indexOf("--agent") + 1], "--pure"]);
    expect(run.argv).toContain("skillopt-sleep-tool-replay");
  });

  it("tool replay stops the night when the agent could use more than the synthetic tools; without the opt-in a tool task is one failed call", async () => {
    const cfg = { stdout: JSON.stringify({ snapshot: false }) };
    const f = fakeCli("opencode", {
      debug: [cfg, cfg, { stdout: JSON.stringify({ tools: { __TOOL__: true, bash: true } }) }],
      run: [{ stdout: "" }],
    });
    const b = build({ backend: "opencode", opencode_tool_replay: true }, { PATH: f.PATH });
    await expect(b.attemptWithTools(task, "", "", ["search"])).rejects.toThrow(
      /the replay agent would have tools .*bash.*refusing to replay/,
    );
    expect(f.calls().some((c) => c.argv[0] === "run")).toBe(false);
    const plain = build({ backend: "opencode" }, { PATH: f.PATH });
    expect(await plain.attemptWithTools(task, "", "", ["search"])).toEqual({ response: "", called: [] });
    expect(plain.lastCallError).toMatch(/tool replay is off \(opt in with --opencode-tool-replay/);
  });

  it("the synthetic tool module accepts only the fixed input and returns the fixed result", async () => {
    const dir = tempDir();
    const ids = prepareReplayProject(dir, replayToolNames(["search", "Search", "web.fetch"]));
    expect([...ids.keys()]).toEqual(["search", "web.fetch"]);
    const mod = (await import(join(dir, ".opencode", "tools", `${ids.get("search")}.js`))) as {
      default: { execute(a: unknown): Promise<string> };
    };
    await expect(mod.default.execute({ query: "synthetic" })).resolves.toBe("Synthetic replay result available.");
    await expect(mod.default.execute({ query: "rm -rf" })).rejects.toThrow(/Invalid synthetic replay input/);
    expect(() => replayToolNames(["../x"])).toThrow(/not a usable tool name/);
  });
});

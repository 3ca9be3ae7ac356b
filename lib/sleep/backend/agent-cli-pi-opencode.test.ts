/** The agent-CLI backends, part 2: pi and opencode (with its opt-in tool replay). Part 1: agent-cli.test.ts. */
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "../test-helpers";
import { prepareReplayProject, replayToolNames } from "./opencode-tools";
import { PI_ARGS } from "./pi";
import { fakeCli } from "./testing-fake-cli";
import { ask, build, task } from "./testing-agent-cli";

afterAll(removeTempDirs);

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

/** The agent-CLI backends, part 1: backend names, copilot and cursor. Part 2 (pi, opencode): agent-cli-pi-opencode.test.ts. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs } from "../test-helpers";
import { resolveSleepBackend } from "./build";
import { parseCopilotJsonl } from "./copilot";
import { cursorResult } from "./cursor";
import { fakeCli } from "./testing-fake-cli";
import { ask, build, task } from "./testing-agent-cli";
import { SleepBackendError } from "./types";

afterAll(removeTempDirs);

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

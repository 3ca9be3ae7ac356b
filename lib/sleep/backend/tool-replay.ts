/**
 * Tool replay (spec D.6): a task whose rule judge requires `tool_called` is run by an agent CLI in a
 * fresh temporary folder holding one executable shell shim per required tool. Each shim appends its name
 * to a log and prints a canned result; the tools called are read from that log, never from what the
 * model says it did. The folder is removed afterwards.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeExit, installHint, runCli, type ExecEnv, type ExecKind } from "../../backends/exec";
import type { ToolRunner } from "./model";

/** A tool name becomes a file name: one plain path segment only. */
const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

export interface ToolReplaySettings {
  kind: ExecKind;
  bin: string;
  model?: string;
  env: ExecEnv;
  timeoutMs: number;
  /** Parent of the temporary folders (default: the OS temp folder). */
  workRoot?: string;
}

export function toolHint(tools: readonly string[]): string {
  return (
    `You have shell tools in the current directory: ${tools.map((t) => `./${t}`).join(", ")}. ` +
    "When the guidance says to look something up or search before answering, you MUST actually run the tool " +
    '(for example `./search "query"`) with your shell before giving the final answer.'
  );
}

export function writeShims(work: string, tools: readonly string[], log: string): void {
  for (const name of tools) {
    const shim = join(work, name);
    // The name is checked against TOOL_NAME and the log path is quoted, so the script is inert text.
    writeFileSync(
      shim,
      `#!/bin/sh\nprintf '%s\\n' '${name}' >> '${log.replace(/'/g, "'\\''")}'\necho "(results: 3 relevant notes found; use them to answer)"\n`,
    );
    chmodSync(shim, 0o755);
  }
}

function args(s: ToolReplaySettings, work: string, outFile: string): string[] {
  if (s.kind === "claude") {
    const a = [
      "-p",
      "--output-format",
      "text",
      "--disable-slash-commands",
      "--allowedTools",
      "Bash",
      "--exclude-dynamic-system-prompt-sections",
    ];
    return s.model ? [...a, "--model", s.model] : a;
  }
  const a = [
    "exec",
    "--skip-git-repo-check",
    "-C",
    work,
    "--color",
    "never",
    "--sandbox",
    "workspace-write",
    "-o",
    outFile,
  ];
  return [...(s.model ? [...a, "-m", s.model] : a), "-"];
}

export function createToolRunner(s: ToolReplaySettings): ToolRunner {
  return async (prompt, tools) => {
    const bad = tools.find((t) => !TOOL_NAME.test(t));
    if (bad !== undefined)
      throw new Error(`tool replay: '${bad}' is not a usable tool name (letters, digits, '_', '.', '-' only)`);
    const work = mkdtempSync(join(s.workRoot ?? tmpdir(), "skillopt-sleep-tools-"));
    const log = join(work, ".tool-calls.log");
    const outFile = join(work, ".answer.txt");
    try {
      writeShims(work, tools, log);
      const stdin = `${toolHint(tools)}\n\n${prompt}`;
      const out = await runCli({
        label: `${s.kind} tool replay`,
        bin: s.bin,
        args: args(s, work, outFile),
        cwd: work,
        env: s.env,
        stdin,
        timeoutMs: s.timeoutMs,
        installHint: installHint(s.kind),
      });
      if (out.code !== 0) throw new Error(describeExit(out));
      const response = (s.kind === "claude" ? out.stdout : readOptional(outFile)).trim();
      const logged = new Set(
        readOptional(log)
          .split("\n")
          .map((l) => l.trim())
          .filter(Boolean),
      );
      return {
        response,
        called: tools.filter((t) => logged.has(t)),
        tokens: Math.floor(stdin.length / 4) + Math.floor(response.length / 4),
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };
}

function readOptional(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return ""; // nothing written: no answer / no tool call
  }
}

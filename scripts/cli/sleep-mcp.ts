/**
 * `sleep mcp`: the SkillOpt-Sleep MCP server on stdio (spec D.15). Stdout belongs to JSON-RPC, so each
 * tool call runs `sleep <command> --json` as a child process of this checkout and returns its output;
 * the child is killed when the host cancels the call. The server ends when the host closes stdin.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createSleepMcpServer, type SleepRunner } from "../../lib/sleep/mcp/server";
import { REPO_ROOT } from "./sleep-schedule";

const MAX_OUTPUT = 8 * 1024 * 1024;
/** The TypeScript loader by absolute path, so the child starts whatever folder the host launched us in. */
const TSX = createRequire(import.meta.url).resolve("tsx");

const runSleep: SleepRunner = (args, signal) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", TSX, join(REPO_ROOT, "scripts", "cli.ts"), "sleep", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr = (stderr + c.toString("utf8")).slice(-64 * 1024);
    });
    const cancel = () => child.kill("SIGTERM");
    signal.addEventListener("abort", cancel, { once: true });
    child.on("error", (err) => resolve({ code: null, stdout, stderr: `${stderr}\n${err.message}` }));
    child.on("close", (code) => {
      signal.removeEventListener("abort", cancel);
      resolve({ code, stdout, stderr });
    });
  });

export async function runSleepMcp(): Promise<number> {
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
  const server = createSleepMcpServer({ run: runSleep, cwd: process.cwd(), version });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return 0;
}

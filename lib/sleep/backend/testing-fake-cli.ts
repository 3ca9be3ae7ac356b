/**
 * A fake agent CLI for backend tests: an executable named like the real one on a private PATH. Each run
 * appends `{argv, stdin, cwd, env}` to a log and replies with the next scripted answer for its first
 * argument (or "*"): `{stdout, stderr, code}`; the last answer repeats. `__TOOL__` in stdout becomes the
 * first synthetic tool id of an OpenCode replay folder (the tool replay picks random ids).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../test-helpers";

export interface Reply {
  stdout?: string;
  stderr?: string;
  code?: number;
  /** Write the tool shim's name by running it (copilot tool replay): `./<tool>` inside cwd. */
  runTool?: string;
  /** Record this file's text in the call log (`$NAME` expands from the environment). */
  readFile?: string;
}

export interface FakeCall {
  argv: string[];
  stdin: string;
  cwd: string;
  env: Record<string, string>;
  /** Files in cwd when the CLI ran (names only). */
  files: string[];
  /** The text of `readFile`, when the reply asked for it. */
  read?: string;
}

const SCRIPT = `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const dir = __DIR__;
const stdin = fs.readFileSync(0, "utf8");
const argv = process.argv.slice(2);
const log = path.join(dir, "calls.jsonl");
const prior = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
const env = {};
for (const [k, v] of Object.entries(process.env)) env[k] = v;
let files = [];
try { files = fs.readdirSync(process.cwd()); } catch {}
const script = JSON.parse(fs.readFileSync(path.join(dir, "script.json"), "utf8"));
const key = script[argv[0]] ? argv[0] : "*";
const replies = script[key] || [{}];
const n = prior.filter((c) => (script[c.argv[0]] ? c.argv[0] : "*") === key).length;
const r = replies[Math.min(n, replies.length - 1)];
const read = r.readFile ? fs.readFileSync(r.readFile.replace(/\\$(\\w+)/g, (_, k) => process.env[k] || ""), "utf8") : undefined;
fs.appendFileSync(log, JSON.stringify({ argv, stdin, cwd: process.cwd(), env, files, read }) + "\\n");
if (r.runTool) execFileSync(path.join(process.cwd(), r.runTool), ["query"]);
// "__TOOL__" in a reply stands for the first synthetic tool id of an OpenCode replay folder.
let toolId = "";
try { toolId = fs.readdirSync(path.join(process.cwd(), ".opencode", "tools"))[0].replace(/\\.js$/, ""); } catch {}
if (r.stderr) process.stderr.write(r.stderr);
process.stdout.write((r.stdout || "").split("__TOOL__").join(toolId), () => process.exit(r.code || 0));
`;

export function fakeCli(name: string, script: Record<string, Reply[]>) {
  const dir = tempDir("fake-cli-");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(dir, "script.json"), JSON.stringify(script));
  writeFileSync(join(bin, name), SCRIPT.replace("__DIR__", JSON.stringify(dir)));
  chmodSync(join(bin, name), 0o755);
  const log = join(dir, "calls.jsonl");
  return {
    dir,
    bin,
    path: join(bin, name),
    /** PATH holding the fake and node (the fake's interpreter). */
    PATH: `${bin}:${dirname(process.execPath)}`,
    calls: (): FakeCall[] =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as FakeCall)
        : [],
    setScript: (s: Record<string, Reply[]>) => writeFileSync(join(dir, "script.json"), JSON.stringify(s)),
  };
}

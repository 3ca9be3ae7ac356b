/** Helpers of the exec backend tests: the fake CLIs, requests, the fakes' run log and process checks. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { CompletionRequest } from "../../engine/ports";
import type { ExecEnv } from "./types";

export const FAKE_BIN_DIR = resolve(import.meta.dirname, "../../../tests/fixtures/exec-bin");
export const FAKE_CODEX = join(FAKE_BIN_DIR, "codex");
export const FAKE_CLAUDE = join(FAKE_BIN_DIR, "claude");

export const INSTRUCTIONS = "Answer the trivia question. Put the final answer inside <answer></answer>.";
export const SKILL = "# Skill\n- Prefer the passage that names the entity exactly.\n- Keep answers short.";
export const QUESTION = "## Question\nWhich river flows through Vienna?";

/** A target request shaped like the envs' (instructions, `## Skill`, skill). */
export function targetRequest(over: Partial<CompletionRequest> = {}): CompletionRequest {
  return {
    role: "target",
    stage: "rollout",
    system: `${INSTRUCTIONS}\n\n## Skill\n${SKILL}`,
    messages: [{ role: "user", content: QUESTION }],
    maxTokens: 1024,
    ...over,
  };
}

/** One test's scratch folder: the workspace root, the fakes' log and pid files. */
export interface Scratch {
  dir: string;
  workRoot: string;
  log: string;
  pidFile: string;
  cleanup(): void;
}

export function makeScratch(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), "skillopt-exec-test-"));
  const workRoot = join(dir, "work");
  mkdirSync(workRoot);
  return {
    dir,
    workRoot,
    log: join(dir, "runs.jsonl"),
    pidFile: join(dir, "pids.json"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The child environment of a test: PATH (to find node) plus the fakes' controls. */
export function fakeEnv(scratch: Scratch, extra: ExecEnv = {}): ExecEnv {
  return {
    PATH: process.env.PATH,
    HOME: scratch.dir,
    FAKE_EXEC_LOG: scratch.log,
    FAKE_EXEC_PID_FILE: scratch.pidFile,
    ...extra,
  };
}

export interface FakeRun {
  cli: string;
  argv: string[];
  cwd: string;
  stdin: string;
  task: string;
  skill: string;
  attachmentsMd: string | null;
  attachments: Array<{ name: string; base64: string }>;
  envKeys: string[];
}

/** Every run the fakes logged, in order. */
export function readRuns(scratch: Scratch): FakeRun[] {
  if (!existsSync(scratch.log)) return [];
  return readFileSync(scratch.log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as FakeRun);
}

export function workspacesLeft(scratch: Scratch): string[] {
  return readdirSync(scratch.workRoot);
}

/** False once `pid` is gone (or only a zombie waiting to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return !/^\d+ \(.*\) Z/.test(stat);
}

/** Waits up to `ms` for every pid to be gone; returns those still alive. */
export async function survivors(pids: number[], ms = 2000): Promise<number[]> {
  const until = Date.now() + ms;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** The pids the fake recorded in hang mode (waits for the file to appear). */
export async function hangPids(scratch: Scratch, ms = 5000): Promise<{ pid: number; childPid: number }> {
  const until = Date.now() + ms;
  while (!existsSync(scratch.pidFile) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  return JSON.parse(readFileSync(scratch.pidFile, "utf8")) as { pid: number; childPid: number };
}

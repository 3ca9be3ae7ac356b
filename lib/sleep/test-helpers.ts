/**
 * Builders for lib/sleep tests: a temporary home and project, digests, a loaded config and a scripted
 * ModelClient that answers by prompt content.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CompletionRequest, CompletionResult, ModelClient } from "../engine/ports";
import { loadSleepConfig, type SleepConfig } from "./config";
import type { SessionDigest } from "./session-digest";

const made: string[] = [];

export function tempDir(prefix = "sleep-test-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export function removeTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function writeText(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A home folder and a project folder inside one temp folder. */
export function sandbox(): { root: string; home: string; project: string } {
  const root = tempDir();
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  return { root, home, project };
}

export function testConfig(s: { home: string; project: string }, overrides: Record<string, unknown> = {}): SleepConfig {
  return loadSleepConfig({ home: s.home, cwd: s.project, overrides: { invoked_project: s.project, ...overrides } });
}

export function digest(over: Partial<SessionDigest> & { sessionId: string }): SessionDigest {
  return {
    project: "/work/demo",
    gitBranch: "",
    startedAt: "2024-05-01T10:00:00",
    endedAt: "2024-05-01T10:30:00",
    userPrompts: [],
    assistantFinals: [],
    toolsUsed: [],
    skillsUsed: [],
    filesTouched: [],
    feedbackSignals: [],
    nUserTurns: 1,
    nAssistantTurns: 1,
    source: "claude",
    rawPath: "/dev/null",
    ...over,
  };
}

/** A ModelClient whose answer is chosen by `answer(prompt)`; every request is recorded. */
export class ScriptedClient implements ModelClient {
  readonly requests: CompletionRequest[] = [];
  constructor(
    readonly backend: string,
    readonly model: string,
    private readonly answer: (prompt: string, req: CompletionRequest) => string,
  ) {}
  async complete(req: CompletionRequest): Promise<CompletionResult> {
    this.requests.push(req);
    const prompt = typeof req.messages[0]!.content === "string" ? req.messages[0]!.content : "";
    return {
      text: this.answer(prompt, req),
      usage: { promptTokens: 10, completionTokens: 5 },
      latencyMs: 1,
      cached: false,
    };
  }
  prompts(): string[] {
    return this.requests.map((r) => (typeof r.messages[0]!.content === "string" ? r.messages[0]!.content : ""));
  }
}

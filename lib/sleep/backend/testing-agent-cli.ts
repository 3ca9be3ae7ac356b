/**
 * The agent-CLI backend tests' fixture: a backend built in a fresh sandbox, one miner call, and a replay task.
 * Used by agent-cli*.test.ts (the fake CLIs themselves: testing-fake-cli.ts).
 */
import { join } from "node:path";
import { PromptRegistry } from "../prompts";
import { sandbox, testConfig } from "../test-helpers";
import type { TaskRecord } from "../types";
import { buildSleepBackend } from "./build";

export const build = (over: Record<string, unknown>, env: Record<string, string | undefined>) => {
  const s = sandbox();
  return buildSleepBackend(testConfig(s, over), {
    env: { HOME: s.home, ...env },
    prompts: new PromptRegistry(null),
    handoffDir: join(s.root, "handoff"),
  }).backend;
};
export const ask = (b: ReturnType<typeof build>, prompt = "Say hi.") =>
  b.call(prompt, { maxTokens: 100, kind: "miner" });
export const task = {
  id: "t1",
  intent: "Find the paper.",
  contextExcerpt: "",
  system: "",
  referenceKind: "rule",
  reference: "",
  judge: { checks: [] },
} as unknown as TaskRecord;

/**
 * Replay (spec D.6): re-run tasks under a (skill, memory) pair and score them. Tasks whose rule judge
 * requires a tool call are run with tools (shell shims where the backend supports them); rule judges are
 * scored locally with the tools actually called, everything else goes to the backend's judge.
 */
import type { SleepBackend } from "./backend/types";
import { scoreRuleJudge } from "./judges";
import type { ReplayResult, TaskRecord } from "./types";

/** Tool names a task's rule judge requires (`tool_called` checks). */
export function requiredTools(task: TaskRecord): string[] {
  if (task.referenceKind !== "rule") return [];
  const out: string[] = [];
  for (const c of task.judge.checks ?? []) {
    const check = c as { op?: unknown; arg?: unknown };
    if (check.op === "tool_called" && check.arg) out.push(String(check.arg));
  }
  return out;
}

export interface ReplayDeps {
  backend: SleepBackend;
  /** Monotonic-enough milliseconds for latency only (injected: lib/sleep reads no clock itself). */
  now: () => number;
}

/** `sampleId` keeps repeated rollouts of one (task, skill, memory) apart in the backend's answer cache. */
export async function replayOne(
  deps: ReplayDeps,
  task: TaskRecord,
  skill: string,
  memory: string,
  sampleId = 0,
): Promise<ReplayResult> {
  const { backend } = deps;
  const tools = requiredTools(task);
  const t0 = deps.now();
  const before = backend.tokensUsed();
  let response: string;
  let called: string[] = [];
  if (tools.length > 0) ({ response, called } = await backend.attemptWithTools(task, skill, memory, tools));
  else response = await backend.attempt(task, skill, memory, sampleId);
  const latencyMs = Math.max(0, deps.now() - t0);
  let tokens = Math.max(0, backend.tokensUsed() - before);
  if (tokens === 0) tokens = Math.floor((skill.length + memory.length + task.intent.length + response.length) / 4);
  const { hard, soft, rationale } =
    task.referenceKind === "rule" && task.judge.checks?.length
      ? scoreRuleJudge(task.judge, response, called)
      : await backend.judge(task, response);
  backend.evidence.log("replay", "result", {
    phase: backend.evidence.phase,
    taskId: task.id,
    split: task.split,
    origin: task.origin,
    referenceKind: task.referenceKind,
    sampleId,
    hard,
    soft,
    why: rationale,
    responseHead: response.slice(0, 400),
    toolsCalled: called,
    tokens,
    latencyMs,
  });
  return {
    id: task.id,
    hard,
    soft,
    response,
    failReason: hard >= 1 ? "" : rationale || "below threshold",
    taskType: task.tags[0] ?? "task",
    judgeRationale: rationale,
    toolsCalled: called,
    tokens,
    latencyMs,
  };
}

export type Scored = Array<[TaskRecord, ReplayResult]>;

/**
 * Replays tasks, `workers` at a time (default 1: in order), results in task order whatever the
 * completion order, so identical answers give identical nights.
 */
export async function replayBatch(
  deps: ReplayDeps,
  tasks: readonly TaskRecord[],
  skill: string,
  memory: string,
  workers = 1,
): Promise<Scored> {
  const out: Scored = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = [tasks[i]!, await replayOne(deps, tasks[i]!, skill, memory)];
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, tasks.length)) }, lane));
  return out;
}

/** Mean hard and soft scores (0, 0 for no tasks). */
export function aggregateScores(pairs: Scored): { hard: number; soft: number } {
  if (pairs.length === 0) return { hard: 0, soft: 0 };
  return {
    hard: pairs.reduce((s, [, r]) => s + r.hard, 0) / pairs.length,
    soft: pairs.reduce((s, [, r]) => s + r.soft, 0) / pairs.length,
  };
}

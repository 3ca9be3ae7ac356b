/**
 * Contrastive reflection (spec D.7 "dream rollouts"): run each train task several times and ask the
 * optimizer what the better attempts did that the worse ones did not. The tasks with the widest spread
 * of gate score between their best and worst attempt (up to six) are shown.
 */
import type { SleepBackend } from "./backend/types";
import { extractJson, parseEdits, taskGuardrail } from "./backend/reflect-prompt";
import type { PromptRegistry } from "./prompts";
import { replayOne, type ReplayDeps } from "./replay";
import type { EditRecord, ReplayResult, TaskRecord } from "./types";

export interface RolloutSet {
  task: TaskRecord;
  attempts: ReplayResult[];
}

/** `k` attempts at one task; distinct sample ids keep them apart in the backend's answer cache. */
export async function multiRollout(
  deps: ReplayDeps,
  task: TaskRecord,
  skill: string,
  memory: string,
  k: number,
): Promise<RolloutSet> {
  const attempts: ReplayResult[] = [];
  for (let i = 0; i < Math.max(1, k); i++) attempts.push(await replayOne(deps, task, skill, memory, i));
  return { task, attempts };
}

export interface ContrastiveOptions {
  editBudget: number;
  target: "skill" | "memory";
  score: (hard: number, soft: number) => number;
  metric: string;
}

export async function contrastiveReflect(
  backend: SleepBackend,
  prompts: PromptRegistry,
  sets: readonly RolloutSet[],
  o: ContrastiveOptions,
): Promise<EditRecord[]> {
  const informative = [];
  for (const s of sets) {
    if (s.attempts.length < 2) continue;
    const scored = s.attempts.map((r) => ({ r, v: o.score(r.hard, r.soft) }));
    const best = scored.reduce((a, b) => (b.v > a.v ? b : a));
    const worst = scored.reduce((a, b) => (b.v < a.v ? b : a));
    if (best.v - worst.v > 0) informative.push({ spread: best.v - worst.v, task: s.task, best, worst });
  }
  informative.sort((a, b) => b.spread - a.spread);
  const top = informative.slice(0, 6);
  if (top.length === 0) return [];
  const blocks = top.map(
    ({ task, best, worst }) =>
      `## Task: ${task.intent.slice(0, 160)}\n` +
      `- BETTER attempt (${o.metric} score ${best.v.toFixed(3)}; hard ${best.r.hard.toFixed(3)}, soft ${best.r.soft.toFixed(3)}): ${best.r.response.slice(0, 200)}\n` +
      `- WORSE attempt (${o.metric} score ${worst.v.toFixed(3)}; hard ${worst.r.hard.toFixed(3)}, soft ${worst.r.soft.toFixed(3)}): ${worst.r.response.slice(0, 200)}\n` +
      `  (the worse one failed: ${worst.r.failReason.slice(0, 100)})`,
  );
  const prompt = prompts.render("contrastive", {
    __EDIT_BUDGET__: String(o.editBudget),
    __TARGET__: o.target,
    __GUARD__: taskGuardrail(top.map((x) => x.task)),
    __BLOCKS__: blocks.join("\n\n"),
  });
  const raw = await backend.call(prompt, { maxTokens: 1024, kind: "contrastive" });
  backend.evidence.log("reflect", "contrastive_exchange", {
    target: o.target,
    nTasks: top.length,
    prompt,
    rawReply: raw,
  });
  return parseEdits(extractJson(raw, "array"), o.target, o.editBudget);
}

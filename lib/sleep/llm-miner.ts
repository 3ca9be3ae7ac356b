/**
 * The LLM miner (spec D.5): the optimizer turns each session digest into up to three checkable tasks.
 * A non-empty rubric always wins over literal checks — the optimizer edits text that is put in front of
 * the model, so any "contains X" check can be passed by telling the model to print X; only semantic
 * grading resists that. Checks are kept only in well-formed shapes (the ones validateChecks accepts), and
 * a task with neither rubric nor checks is dropped as uncheckable, never faked.
 */
import type { SleepBackend } from "./backend/types";
import { MAX_TOKENS } from "./backend/model";
import { extractJson } from "./backend/reflect-prompt";
import { sha256Hex } from "./fs-safe";
import { charBound, STRING_ARG_OPS } from "./judges";
import { sessionSkillHint } from "./mine";
import type { PromptRegistry } from "./prompts";
import type { SessionDigest } from "./session-digest";
import { makeTask, type RuleCheck, type TaskRecord } from "./types";

export function minerPrompt(prompts: PromptRegistry, d: SessionDigest): string {
  return prompts.render("miner", {
    __PROJECT__: d.project || "(unknown)",
    __PROMPTS__:
      d.userPrompts
        .slice(0, 6)
        .map((p) => `  - ${p.slice(0, 240)}`)
        .join("\n") || "  (none)",
    __FINAL__: (d.assistantFinals.at(-1) ?? "").slice(0, 400) || "(none)",
    __FEEDBACK__: d.feedbackSignals.slice(0, 6).join(", ") || "(none)",
  });
}

/** The checks a grader can run as written; anything malformed is dropped. Regex arguments are kept verbatim. */
export function sanitiseChecks(raw: unknown): RuleCheck[] {
  if (!Array.isArray(raw)) return [];
  const out: RuleCheck[] = [];
  for (const c of raw) {
    if (typeof c !== "object" || c === null) continue;
    const { op, arg } = c as { op?: unknown; arg?: unknown };
    if (typeof op !== "string") continue;
    if (STRING_ARG_OPS.has(op)) {
      if (typeof arg === "string" && arg.trim()) out.push({ op, arg: op === "regex" ? arg : arg.trim() });
    } else if (op === "max_chars" || op === "min_chars") {
      const bound = charBound(arg);
      if (bound !== null && bound >= 0) out.push({ op, arg: bound });
    } else if (op === "no_refusal") {
      out.push({ op });
    }
  }
  return out;
}

/** One mined object → a task, or null when it is unusable (short intent, nothing checkable). */
export function taskFromMined(d: SessionDigest, obj: Record<string, unknown>): TaskRecord | null {
  const intent = String(obj.intent ?? "").trim();
  if (intent.length < 8) return null;
  const rubric = typeof obj.rubric === "string" ? obj.rubric.trim() : "";
  const checks = sanitiseChecks(obj.checks);
  const base = {
    id: `llm_${sha256Hex(d.project + intent).slice(0, 12)}`,
    project: d.project,
    intent,
    outcome: obj.satisfied === true ? ("success" as const) : ("fail" as const),
    tags: ["mined:llm"],
    sourceSessions: [d.sessionId],
    skillHint: sessionSkillHint(d),
  };
  if (rubric) return makeTask({ ...base, referenceKind: "rubric", reference: rubric });
  if (checks.length > 0) return makeTask({ ...base, referenceKind: "rule", judge: { kind: "rule", checks } });
  return null;
}

export function makeLlmMiner(
  backend: SleepBackend,
  prompts: PromptRegistry,
  o: { maxSessions: number; maxTasks: number },
) {
  return async (digests: readonly SessionDigest[]): Promise<TaskRecord[]> => {
    const out: TaskRecord[] = [];
    for (const d of digests.slice(0, o.maxSessions)) {
      if (d.userPrompts.length === 0) continue;
      const prompt = minerPrompt(prompts, d);
      const raw = await backend.call(prompt, { maxTokens: MAX_TOKENS.miner, kind: "miner" });
      const parsed = extractJson(raw, "array");
      const candidates = Array.isArray(parsed) ? parsed.slice(0, 3) : [];
      const made: TaskRecord[] = [];
      let dropped = 0;
      for (const obj of candidates) {
        if (typeof obj !== "object" || obj === null) continue;
        const t = taskFromMined(d, obj as Record<string, unknown>);
        if (t) made.push(t);
        else dropped += 1;
        if (out.length + made.length >= o.maxTasks) break;
      }
      out.push(...made);
      backend.evidence.log("mine", "miner_exchange", {
        sessionId: d.sessionId,
        project: d.project,
        prompt,
        rawReply: raw,
        parseOk: Array.isArray(parsed),
        nCandidates: candidates.length,
        nTasks: made.length,
        nDroppedUncheckable: dropped,
      });
      for (const t of made)
        backend.evidence.log("mine", "task_mined", {
          taskId: t.id,
          sessionId: d.sessionId,
          intent: t.intent,
          referenceKind: t.referenceKind,
          checks: t.judge.checks ?? [],
          rubric: t.reference,
          outcome: t.outcome,
        });
      if (out.length >= o.maxTasks) break;
    }
    return out;
  };
}

/**
 * A Sleep backend over our ModelClients (lib/backends): the target client answers rollouts, the optimizer
 * client judges rubrics, reflects and mines. One client for both roles is the single-backend setup; two
 * are the dual setup. Prompts come from the registry; identical prompts are answered from a per-night
 * cache (`kind:sha256(prompt)[:16]`, attempts salted with their sample id), so re-scoring an unchanged
 * (task, skill, memory) is free.
 *
 * A call error that no retry fixed becomes an empty answer (scored as a failure) and is remembered in
 * `lastCallError` for the diagnostics; an error that marks the backend unusable (bad credentials, a
 * missing CLI) stops the night instead. Handoff pauses always propagate.
 */
import { stopRunOf, type ModelClient, type Role } from "../../engine/ports";
import { NoEvidence, type Evidence } from "../evidence";
import { sha256Hex } from "../fs-safe";
import { scoreExact, scoreRuleJudge, toolWasCalled, type JudgeScore } from "../judges";
import type { PromptRegistry } from "../prompts";
import type { EditRecord, TaskRecord } from "../types";
import { buildReflectPrompt, extractJson, JSON_RETRY_NOTE, parseEdits } from "./reflect-prompt";
import { PendingCalls, SleepBackendError, type ReflectInput, type SleepBackend } from "./types";

/** Token limits per kind of call (spec D.10). */
export const MAX_TOKENS = { attempt: 512, judge: 200, reflect: 1024, miner: 800 } as const;

/** Runs a task with real (shim) tools; see tool-replay.ts. */
export type ToolRunner = (
  prompt: string,
  tools: readonly string[],
) => Promise<{ response: string; called: string[]; tokens: number }>;

export interface ModelBackendOptions {
  name: string;
  target: ModelClient;
  optimizer: ModelClient;
  prompts: PromptRegistry;
  /** Tool replay with shell shims, for the agent CLIs that can run them; otherwise the TOOL_CALL marker is read. */
  toolRunner?: ToolRunner;
  /** Calls recorded but not answered yet (the handoff client); absent: always 0. */
  pendingCount?: () => number;
}

export class ModelBackend implements SleepBackend {
  readonly name: string;
  readonly model: string;
  evidence: Evidence = new NoEvidence();
  preferences = "";
  lastReflectRaw = "";
  lastCallError = "";
  private tokens = 0;
  private readonly cache = new Map<string, string>();

  constructor(private readonly o: ModelBackendOptions) {
    this.name = o.name;
    this.model = o.target === o.optimizer ? o.target.model : `target=${o.target.model}/optimizer=${o.optimizer.model}`;
  }

  key(): string {
    if (this.o.target === this.o.optimizer) return `${this.o.target.backend}::${this.o.target.model}`;
    return `optimizer=${this.o.optimizer.backend}::${this.o.optimizer.model};target=${this.o.target.backend}::${this.o.target.model}`;
  }

  tokensUsed(): number {
    return this.tokens;
  }

  pendingCount(): number {
    return this.o.pendingCount?.() ?? 0;
  }

  /** One uncached model call; absorbs ordinary failures as an empty answer (see the file comment). */
  private async complete(role: Role, prompt: string, maxTokens: number, stage: string): Promise<string> {
    const client = role === "target" ? this.o.target : this.o.optimizer;
    try {
      const r = await client.complete({
        role,
        stage,
        system: "",
        messages: [{ role: "user", content: prompt }],
        maxTokens,
      });
      const billed = r.usage.promptTokens + r.usage.completionTokens;
      this.tokens += billed > 0 ? billed : Math.floor(prompt.length / 4) + Math.floor(r.text.length / 4);
      return r.text.trim();
    } catch (err) {
      if (err instanceof PendingCalls) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (stopRunOf(err) !== null)
        throw new SleepBackendError(`${client.backend} (${role}): ${message}`, { cause: err });
      this.lastCallError = `${client.backend} (${role}): ${message}`;
      return "";
    }
  }

  private async cached(key: string, role: Role, prompt: string, maxTokens: number): Promise<string> {
    const kind = key.slice(0, key.indexOf(":"));
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.evidence.log("replay", "model_call", {
        kind,
        cacheHit: true,
        key,
        phase: this.evidence.phase,
        backend: this.name,
      });
      return hit;
    }
    const out = await this.complete(role, prompt, maxTokens, kind);
    this.cache.set(key, out);
    this.evidence.log("replay", "model_call", {
      kind,
      cacheHit: false,
      key,
      phase: this.evidence.phase,
      backend: this.name,
      model: this.model,
      prompt,
      response: out,
      error: this.lastCallError,
    });
    return out;
  }

  /** The rollout prompt: a benchmark task's own system prompt with neutral Skill/Memory sections, or the `attempt` template. */
  attemptPrompt(task: TaskRecord, skill: string, memory: string): string {
    if (task.system) {
      const skillSection = skill.trim() ? `## Skill\n${skill.trim()}\n\n` : "";
      const memorySection = memory.trim() ? `## Memory\n${memory.trim()}\n\n` : "";
      const system = task.system.includes("{skill_section}")
        ? task.system.split("{skill_section}").join(skillSection)
        : skillSection + task.system;
      const body = task.intent + (task.contextExcerpt ? `\n\n${task.contextExcerpt}` : "");
      return `${system}${memorySection}\n${body}`;
    }
    return this.o.prompts.render("attempt", {
      __SKILL__: skill || "(none)",
      __MEMORY__: memory || "(none)",
      __INTENT__: task.intent,
      __CONTEXT__: task.contextExcerpt,
    });
  }

  async attempt(task: TaskRecord, skill: string, memory: string, sampleId = 0): Promise<string> {
    const prompt = this.attemptPrompt(task, skill, memory);
    const salt = sampleId ? `s${sampleId}:` : "";
    return this.cached(`attempt:${salt}${sha256Hex(prompt).slice(0, 16)}`, "target", prompt, MAX_TOKENS.attempt);
  }

  async attemptWithTools(
    task: TaskRecord,
    skill: string,
    memory: string,
    tools: readonly string[],
  ): Promise<{ response: string; called: string[] }> {
    if (!this.o.toolRunner) {
      const response = await this.attempt(task, skill, memory);
      return { response, called: tools.filter((t) => toolWasCalled(t, response, [])) };
    }
    const prompt = this.attemptPrompt(task, skill, memory);
    try {
      const r = await this.o.toolRunner(prompt, tools);
      this.tokens += r.tokens;
      return { response: r.response, called: r.called };
    } catch (err) {
      if (stopRunOf(err) !== null)
        throw new SleepBackendError(`${this.o.target.backend} (tool replay): ${(err as Error).message}`, {
          cause: err,
        });
      this.lastCallError = `${this.o.target.backend} (tool replay): ${(err as Error).message}`;
      return { response: "", called: [] };
    }
  }

  async judge(task: TaskRecord, response: string): Promise<JudgeScore> {
    if (task.referenceKind === "rule" && task.judge.checks?.length) return scoreRuleJudge(task.judge, response);
    if (task.referenceKind === "exact" && task.reference)
      return { ...scoreExact(task.reference, response), rationale: "exact(local)" };
    const prompt = this.o.prompts.render("judge", {
      __RUBRIC__: task.reference || task.intent,
      __RESPONSE__: response,
    });
    const raw = await this.cached(`judge:${sha256Hex(prompt).slice(0, 16)}`, "optimizer", prompt, MAX_TOKENS.judge);
    const obj = extractJson(raw, "object");
    const score = typeof obj === "object" && obj !== null ? Number((obj as { score?: unknown }).score) : Number.NaN;
    if (!Number.isFinite(score)) return { hard: 0, soft: 0, rationale: "judge-parse-failed" };
    const soft = Math.min(1, Math.max(0, score));
    return {
      hard: soft >= 0.8 ? 1 : 0,
      soft,
      rationale: String((obj as { reason?: unknown }).reason ?? "").slice(0, 200),
    };
  }

  async reflect(input: ReflectInput): Promise<EditRecord[]> {
    if (input.failures.length === 0) return [];
    const prompt = buildReflectPrompt(this.o.prompts, input, this.preferences);
    let raw = "";
    let parsed: unknown = null;
    for (let attempt = 0; attempt < 2; attempt++) {
      const p = attempt === 0 ? prompt : prompt + JSON_RETRY_NOTE;
      raw = await this.complete("optimizer", p, MAX_TOKENS.reflect, "reflect");
      this.evidence.log("reflect", "exchange", {
        target: input.target,
        attempt: attempt + 1,
        backend: this.name,
        model: this.model,
        nFailures: input.failures.length,
        prompt: p,
        rawReply: raw,
        error: this.lastCallError,
      });
      parsed = extractJson(raw, "array");
      if (Array.isArray(parsed) && parsed.length > 0) break;
    }
    this.lastReflectRaw = raw;
    return parseEdits(parsed, input.target, input.editBudget);
  }

  async call(prompt: string, opts: { maxTokens: number; kind: string }): Promise<string> {
    return this.complete("optimizer", prompt, opts.maxTokens, opts.kind);
  }
}

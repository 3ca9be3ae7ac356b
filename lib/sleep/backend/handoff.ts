/**
 * The handoff backend (spec D.11): no model process at all. Every call becomes a prompt file that an
 * interactive agent session answers between runs. A call is answered from `answers/<sha256(prompt)[:16]>.md`
 * when that file exists; otherwise it is recorded as pending and a placeholder is returned, so the
 * independent calls of one phase are collected into one batch. A prompt built from a placeholder (or the
 * JSON retry of a reflect whose first reply was one) depends on answers nobody gave yet: the pass stops
 * with PendingCalls. Re-running is deterministic, so the answers folder acts as a cache across runs.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CompletionRequest, CompletionResult, ModelClient } from "../../engine/ports";
import { redactText } from "../../contracts/redact";
import { sha256Hex } from "../fs-safe";
import { JSON_RETRY_NOTE } from "./reflect-prompt";
import { PendingCalls } from "./types";

export const PENDING_PREFIX = "[[SKILLOPT-SLEEP-PENDING:";
export const PENDING_FORMAT = "skillopt_sleep.handoff.v1";
const RETRY_MARKER = JSON_RETRY_NOTE.trim().slice(0, 60);

interface Pending {
  prompt: string;
  maxTokens: number;
}

function promptOf(req: CompletionRequest): string {
  const parts = req.messages.map((m) =>
    typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"),
  );
  return [req.system, ...parts].filter((p) => p !== "").join("\n\n");
}

export class HandoffClient implements ModelClient {
  readonly backend = "handoff";
  readonly model: string;
  readonly answersDir: string;
  private readonly pending = new Map<string, Pending>();

  constructor(
    readonly dir: string,
    model = "",
  ) {
    this.dir = resolve(dir);
    this.model = model || "handoff";
    this.answersDir = join(this.dir, "answers");
  }

  pendingCount(): number {
    return this.pending.size;
  }

  answerPath(id: string): string {
    return join(this.answersDir, `${id}.md`);
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const prompt = promptOf(req);
    if (prompt.includes(PENDING_PREFIX)) throw new PendingCalls(this.pending.size);
    if (prompt.includes(RETRY_MARKER) && this.pending.size > 0) throw new PendingCalls(this.pending.size);
    const id = sha256Hex(prompt).slice(0, 16);
    const answer = this.answerPath(id);
    if (existsSync(answer)) {
      return {
        text: readFileSync(answer, "utf8").trim(),
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
        cached: false,
      };
    }
    this.pending.set(id, { prompt, maxTokens: req.maxTokens });
    return {
      text: `${PENDING_PREFIX}${id}]]`,
      usage: { promptTokens: 0, completionTokens: 0 },
      latencyMs: 0,
      cached: false,
    };
  }

  /**
   * Writes `pending.json` (machine-readable) and `PROMPTS.md` (for the answering session: each prompt
   * between BEGIN/END marker lines, since prompts can contain code fences). Prompts are redacted.
   * Returns the PROMPTS.md path.
   */
  flush(): string {
    mkdirSync(this.answersDir, { recursive: true });
    const items = [...this.pending.entries()];
    const payload = {
      format: PENDING_FORMAT,
      answers_dir: this.answersDir,
      pending: items.map(([id, p]) => ({
        id,
        answer_file: this.answerPath(id),
        max_tokens: p.maxTokens,
        prompt: redactText(p.prompt),
      })),
    };
    writeFileSync(join(this.dir, "pending.json"), `${JSON.stringify(payload, null, 2)}\n`);
    const lines = [
      "# SkillOpt-Sleep — model calls waiting for answers (handoff)",
      "",
      `${items.length} prompt(s) below need answers before the night can continue.`,
      "",
      "For EACH prompt:",
      "",
      "1. Answer it in a FRESH context (for example a sub-agent with no history). Do not let this session,",
      "   the other prompts in this file or the optimisation itself leak into the answer: that would",
      "   contaminate the held-out gate.",
      "2. Write ONLY the raw answer text (no commentary, no code fences) to the prompt's answer file.",
      "",
      "When every answer file exists, run the same `sleep run --backend handoff …` command again; it",
      "continues from the answers folder.",
      "",
    ];
    items.forEach(([id, p], i) => {
      lines.push(
        "---",
        "",
        `## Prompt ${i + 1} of ${items.length}`,
        "",
        `- id: \`${id}\``,
        `- answer file: \`answers/${id}.md\``,
        `- suggested max tokens: ${p.maxTokens}`,
        "",
      );
      lines.push(`----- BEGIN PROMPT ${id} -----`, redactText(p.prompt), `----- END PROMPT ${id} -----`, "");
    });
    const path = join(this.dir, "PROMPTS.md");
    writeFileSync(path, lines.join("\n"));
    return path;
  }
}

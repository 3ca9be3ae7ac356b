/**
 * Accumulates one session's digest while a source reads it. Every text is secret-redacted here, before
 * it is clipped or kept, so nothing unredacted leaves harvest whichever source produced it.
 */
import { redactText } from "../../contracts/redact";
import type { SessionDigest } from "../session-digest";
import { detectFeedback, isMetaPrompt } from "./filters";
import type { HarvestRun, HarvestSource } from "./run";

/** Assistant finals kept per session (the miners read the last one or few). */
export const FINALS_KEPT = 5;

export interface BuilderLimits {
  /** Most prompts kept (the rest still count as turns); 0 = all. */
  maxPrompts?: number;
  /** Longest text kept, in characters, after redaction; 0 = whole. */
  maxChars?: number;
}

/** A tool name reduced to a short, safe identifier. */
export function toolName(name: unknown): string {
  return typeof name === "string"
    ? name
        .trim()
        .replace(/[^A-Za-z0-9_.:-]+/g, "_")
        .slice(0, 80)
    : "";
}

/** Visible text of a message content: a string, or the `text` blocks of a block list. */
export function textOfContent(content: unknown, blockType = "text"): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content) {
    if (b && typeof b === "object" && (b as { type?: unknown }).type === blockType) {
      const t = (b as { text?: unknown }).text;
      if (typeof t === "string" && t) parts.push(t);
    }
  }
  return parts.join("\n");
}

export class DigestBuilder {
  project = "";
  gitBranch = "";
  startedAt = "";
  endedAt = "";
  private readonly prompts: string[] = [];
  private readonly finals: string[] = [];
  private readonly tools = new Set<string>();
  private readonly skills = new Set<string>();
  private readonly files = new Set<string>();
  private readonly feedback = new Set<string>();
  private nUser = 0;
  private nAssistant = 0;

  constructor(
    private readonly run: HarvestRun,
    private readonly id: { sessionId: string; source: HarvestSource; rawPath: string },
    private readonly limits: BuilderLimits = {},
  ) {}

  /** The first time seen starts the session; every later one moves its end. */
  seeTime(ts: unknown): void {
    if (typeof ts !== "string" || ts === "") return;
    if (!this.startedAt) this.startedAt = ts;
    this.endedAt = ts;
  }

  private redact(text: string): string {
    return redactText(text.replace(/\0/g, "")).trim();
  }

  /** Redact before clipping: a clipped secret may no longer match its pattern. */
  private clip(text: string): string {
    return this.limits.maxChars ? text.slice(0, this.limits.maxChars) : text;
  }

  /**
   * A user message: dropped (and counted) when it is a meta prompt; feedback is read from follow-ups.
   * Returns whether it was kept as a prompt turn.
   */
  addUser(text: string): boolean {
    if (text.trim() === "") return false;
    const clean = this.redact(text);
    if (isMetaPrompt(clean)) {
      this.run.skip("meta");
      return false;
    }
    this.nUser += 1;
    // The opening request describes the problem ("the build is broken"); only later turns judge the answer.
    if (this.nUser > 1) for (const s of detectFeedback(clean, this.run.filters)) this.feedback.add(s);
    if (!this.limits.maxPrompts || this.prompts.length < this.limits.maxPrompts) this.prompts.push(this.clip(clean));
    return true;
  }

  /** A user message the source itself knows is not a request. */
  dropMeta(text: string): void {
    if (text.trim() !== "") this.run.skip("meta");
  }

  /**
   * One assistant turn, with its visible text ("" for a turn of tool calls only). Only the last few are
   * kept, so they are redacted when the digest is built, not on every turn.
   */
  addAssistant(text: string): void {
    this.nAssistant += 1;
    if (text.trim() === "") return;
    this.finals.push(text);
    if (this.finals.length > FINALS_KEPT) this.finals.shift();
  }

  addTool(name: unknown): void {
    const t = toolName(name);
    if (t) this.tools.add(t);
  }

  addSkill(name: string): void {
    if (name.trim()) this.skills.add(name.trim());
  }

  addFile(file: string): void {
    if (file) this.files.add(redactText(file));
  }

  addSignal(signal: string): void {
    this.feedback.add(signal);
  }

  /** The digest, or null when the session had no turn at all. */
  build(): SessionDigest | null {
    if (this.nUser === 0 && this.nAssistant === 0) return null;
    return {
      ...this.id,
      project: this.project,
      gitBranch: this.gitBranch,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      userPrompts: this.prompts,
      assistantFinals: this.finals.map((t) => this.clip(this.redact(t))).filter((t) => t !== ""),
      toolsUsed: [...this.tools],
      skillsUsed: [...this.skills],
      filesTouched: [...this.files],
      feedbackSignals: [...this.feedback],
      nUserTurns: this.nUser,
      nAssistantTurns: this.nAssistant,
    };
  }
}

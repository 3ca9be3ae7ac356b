/**
 * SkillOpt-Sleep's unit of harvested experience: one coding-agent session boiled down to what the miners
 * need (spec D.2). Harvest (lib/sleep/harvest) produces these from the agents' transcripts, read-only; the
 * nightly cycle (lib/sleep) mines tasks from them. Every string is already secret-redacted when a digest
 * leaves harvest.
 */
import { z } from "zod";

/** The transcript sources harvest can read (`auto` = Codex first, then Claude). */
export const TRANSCRIPT_SOURCES = [
  "claude",
  "codex",
  "copilot",
  "copilot_cli",
  "cursor",
  "pi",
  "opencode",
  "auto",
] as const;

export const SessionDigestSchema = z.object({
  sessionId: z.string(),
  /** Absolute project folder the session worked in ("" when the transcript does not say). */
  project: z.string(),
  gitBranch: z.string().default(""),
  /** ISO 8601 with a `T` separator; "" when unknown. */
  startedAt: z.string().default(""),
  endedAt: z.string().default(""),
  /** The user's own prompts, in order (meta prompts and tool wrappers already dropped). */
  userPrompts: z.array(z.string()),
  /** The assistant's final texts, the last five. */
  assistantFinals: z.array(z.string()),
  toolsUsed: z.array(z.string()),
  skillsUsed: z.array(z.string()),
  filesTouched: z.array(z.string()),
  /** `neg:<phrase>` / `pos:<phrase>` from the user's follow-ups (or a source's own signal, e.g. `neg:cursor_turn_error`). */
  feedbackSignals: z.array(z.string()),
  nUserTurns: z.number().int().min(0),
  nAssistantTurns: z.number().int().min(0),
  /** Which source read it, and the file (or database) it came from. */
  source: z.enum(TRANSCRIPT_SOURCES).exclude(["auto"]),
  rawPath: z.string(),
});
export type SessionDigest = z.infer<typeof SessionDigestSchema>;

/**
 * The judgements harvest makes about text: which user messages are not the user's own request (meta
 * prompts), which sessions were written by a program rather than a person (the engine's own headless
 * calls, other tools' sub-agents), and which follow-ups approve or reject the assistant's work.
 */
import { toEpochMs } from "./scope";

/**
 * Openings of prompts that SkillOpt itself sends to an agent CLI: our benchmark exec prompt, the
 * training loop's analysts, and the Python original's grader/reflect prompts (people who ran it have
 * those sessions too). The nightly cycle adds its effective templates through `replayMarkers`.
 */
export const ENGINE_PROMPT_MARKERS: readonly string[] = [
  "You are solving one benchmark task in the current working directory.",
  "of a skill-training loop.",
  "You are SkillOpt-Sleep",
  "You are a strict grader",
  "Score the response 0.0-1.0",
  "You are an expert success-pattern analyst",
  "You are an expert failure-pattern analyst",
  "## CURRENT SKILL",
  "## FAILED TASKS",
];

/** First prompts of sessions that other tools' sub-agents open (a memory observer, our own plugin command). */
export const AGENT_SESSION_MARKERS: readonly string[] = [
  "You are a Claude-Mem",
  "Hello memory agent",
  "You are driving **SkillOpt-Sleep**",
];

/** Phrases in a follow-up that say the last answer was not right (matched case-insensitively, as substrings). */
export const NEGATIVE_FEEDBACK: readonly string[] = [
  "still broken",
  "still failing",
  "still fails",
  "still wrong",
  "still not",
  "doesn't work",
  "does not work",
  "didn't work",
  "did not work",
  "not working",
  "not fixed",
  "that's wrong",
  "that is wrong",
  "wrong",
  "incorrect",
  "not what i asked",
  "same error",
  "broken",
  "nope",
  "revert",
  "undo",
  "try again",
];

/** Phrases in a follow-up that approve the last answer. */
export const POSITIVE_FEEDBACK: readonly string[] = [
  "thanks",
  "thank you",
  "perfect",
  "works now",
  "that works",
  "it works",
  "lgtm",
  "looks good",
  "great",
  "nice",
  "awesome",
  "exactly what i",
  "fixed",
];

/** A user message that is not a request: wrappers, slash commands, notices, expanded command bodies. */
export function isMetaPrompt(text: string): boolean {
  const t = text.trim();
  if (t === "") return true;
  if (t.startsWith("<") && t.endsWith(">")) return true;
  if (t.startsWith("/") && t.split(/\s+/).length <= 3) return true;
  if (t.startsWith("[Pasted text") || t.startsWith("Caveat:") || t.startsWith("[Request interrupted")) return true;
  const head = t.slice(0, 200);
  if (head.includes("<command-message>") || head.includes("<command-name>")) return true;
  return t.startsWith("# /");
}

export interface TextFilters {
  negative: string[];
  positive: string[];
  agentMarkers: string[];
  replayMarkers: string[];
}

export function makeTextFilters(extra: {
  negativeFeedback: string[];
  positiveFeedback: string[];
  agentMarkers: string[];
  replayMarkers: string[];
}): TextFilters {
  const lower = (xs: readonly string[]) => [...new Set(xs.map((x) => x.trim().toLowerCase()).filter(Boolean))];
  const exact = (xs: readonly string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
  return {
    negative: lower([...NEGATIVE_FEEDBACK, ...extra.negativeFeedback]),
    positive: lower([...POSITIVE_FEEDBACK, ...extra.positiveFeedback]),
    agentMarkers: exact([...AGENT_SESSION_MARKERS, ...extra.agentMarkers]),
    replayMarkers: exact([...ENGINE_PROMPT_MARKERS, ...extra.replayMarkers]),
  };
}

/** `neg:<phrase>` / `pos:<phrase>` for every phrase the text contains. */
export function detectFeedback(text: string, f: TextFilters): string[] {
  const low = text.toLowerCase();
  return [
    ...f.negative.filter((p) => low.includes(p)).map((p) => `neg:${p}`),
    ...f.positive.filter((p) => low.includes(p)).map((p) => `pos:${p}`),
  ];
}

/** The session was opened by another tool's sub-agent: its first prompt carries a marker. */
export function isAgentSession(prompts: string[], f: TextFilters): boolean {
  const first = prompts[0];
  return first !== undefined && f.agentMarkers.some((m) => first.includes(m));
}

/**
 * The session is one of the engine's own headless calls: a single prompt that carries an engine marker,
 * or a single short prompt (<200 chars) answered in under 3 s — no person types and reads that fast.
 * Sessions with several prompts are interactive by definition.
 */
export function isHeadlessSession(
  d: { userPrompts: string[]; startedAt: string; endedAt: string },
  f: TextFilters,
): boolean {
  if (d.userPrompts.length !== 1) return false;
  const prompt = d.userPrompts[0]!;
  if (f.replayMarkers.some((m) => prompt.includes(m))) return true;
  const start = toEpochMs(d.startedAt);
  const end = toEpochMs(d.endedAt);
  return prompt.length < 200 && start !== null && end !== null && end - start < 3000;
}

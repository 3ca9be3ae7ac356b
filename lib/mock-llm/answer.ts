/**
 * The model behind every endpoint: the simulated backend's logic, with the role read from the prompt
 * (optimizer prompts open with one of the engine's signatures, everything else is a target prompt).
 */
import { buildSimKnowledge, type SimKnowledge } from "../contracts/sim";
import { SIGNATURES } from "../engine/prompts/common";
import { approxTokens } from "../backends/sim/parse";
import { simAnswer } from "../backends/sim";
import { liveMathSample, liveMathSimRules, searchQaSample, searchQaSimRules } from "../envs";
import type { MockRole } from "./types";

/** A request reduced to what the sim reads, whatever API it came through. */
export interface Prompt {
  model: string;
  system: string;
  /** All non-system messages joined by newlines (as the in-process sim client does). */
  user: string;
  /** The request's output token limit, when it set one. */
  maxTokens: number | null;
}

export interface Completion {
  role: MockRole;
  text: string;
  /** "length" when the text was cut by the token limit or the truncation fault. */
  finish: "stop" | "length";
  promptTokens: number;
  completionTokens: number;
}

export interface SimSettings {
  knowledge: SimKnowledge | null;
  seed: number;
  slipRate: number;
  unhelpfulRate: number;
  malformedRate: number;
}

const SIGNATURE_LIST: readonly string[] = Object.values(SIGNATURES);

export function roleOf(system: string): MockRole {
  const first = system.trimStart().split("\n", 1)[0] ?? "";
  return SIGNATURE_LIST.some((sig) => first.startsWith(sig)) ? "optimizer" : "target";
}

/** Rules and items of both built-in samples; their rule ids and questions do not overlap. */
export function defaultKnowledge(): SimKnowledge {
  const items = [searchQaSample(), liveMathSample()].flatMap((s) => [...s.train, ...s.val, ...s.test]);
  return buildSimKnowledge([...searchQaSimRules(), ...liveMathSimRules()], items);
}

/** Keeps the first `maxTokens` worth of characters (approxTokens counts 4 characters a token). */
function capToTokens(text: string, maxTokens: number | null): { text: string; cut: boolean } {
  if (maxTokens === null || maxTokens <= 0 || approxTokens(text) <= maxTokens) return { text, cut: false };
  return { text: text.slice(0, maxTokens * 4), cut: true };
}

export function answerPrompt(p: Prompt, sim: SimSettings, truncate: boolean): Completion {
  const role = roleOf(p.system);
  const full = simAnswer(p.system, p.user, { ...sim, role, latencyMs: 0 });
  const capped = capToTokens(truncate ? full.slice(0, Math.floor(full.length / 2)) : full, p.maxTokens);
  return {
    role,
    text: capped.text,
    finish: truncate || capped.cut ? "length" : "stop",
    promptTokens: approxTokens(p.system) + approxTokens(p.user),
    completionTokens: approxTokens(capped.text),
  };
}

/** Text of a message `content`: a string, or the text of its parts joined by newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      if (typeof part === "string") return part;
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === "string" ? text : "";
    })
    .filter((t) => t !== "")
    .join("\n");
}

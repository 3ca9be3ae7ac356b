/**
 * The simulated model ("sim") for both roles: deterministic, offline, and labelled — scores it produces
 * are synthetic. It receives exactly the prompts a real model would and answers by reading them.
 */
import { setImmediate as nextLoopTurn } from "node:timers/promises";
import { JUDGE_SIGNATURE } from "../../contracts/judge";
import type { SimKnowledge } from "../../contracts/sim";
import type { CompletionRequest, CompletionResult, ModelClient, Role } from "../../engine/ports";
import { SIGNATURES, type PromptKind } from "../../engine/prompts/common";
import { PAYLOAD, simAnalyst, simMerge, type Mode } from "./analyst";
import { approxTokens, draw, sectionBody, targetSkill } from "./parse";
import { simConsolidate, simLearningRate, simMetaSkill, simRanking, simRewrite, simSlowUpdate } from "./planner";
import { simTargetAnswer } from "./target";

export interface SimOptions {
  role: Role;
  model?: string;
  knowledge: SimKnowledge | null;
  seed: number;
  slipRate: number;
  unhelpfulRate: number;
  malformedRate: number;
  latencyMs: number;
  /**
   * Target only: chance that an answer is cut off by the token limit (half its text, reported as
   * truncated). Drawn per prompt and limit, so a retry with a larger limit usually gets the whole answer.
   */
  truncateRate?: number;
}

function promptKind(system: string): PromptKind | null {
  const first = system.split("\n", 1)[0]!.trim();
  for (const [kind, sig] of Object.entries(SIGNATURES)) if (first === sig) return kind as PromptKind;
  return null;
}

function modeOf(system: string): Mode {
  if (system.includes(`"${PAYLOAD.full}"`)) return "full";
  if (system.includes(`"${PAYLOAD.rewrite}"`)) return "rewrite";
  return "patch";
}

/**
 * A simulated grader for the custom-dataset judge metric: 1 when the candidate answer equals a reference
 * after normalisation (case, punctuation, articles, spacing), 0.4 (below the pass mark) when one contains the other, else 0.
 */
function simJudge(user: string): string {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]/gu, " ")
      .replace(/\b(a|an|the)\b/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  const refs = (sectionBody(user, "Reference answers") ?? "")
    .split("\n")
    .map((l) => norm(l.replace(/^\s*-\s*/, "")))
    .filter(Boolean);
  const said = norm(sectionBody(user, "Candidate answer") ?? "");
  const exact = said !== "" && refs.includes(said);
  const partial = !exact && said !== "" && refs.some((r) => r.includes(said) || said.includes(r));
  const score = exact ? 1 : partial ? 0.4 : 0;
  const reason = exact
    ? "matches a reference answer"
    : partial
      ? "overlaps a reference answer only partly"
      : "does not match any reference answer";
  return JSON.stringify({ score, reason });
}

/** Answers one optimizer prompt; exported for the mock LLM server. */
export function simOptimizerAnswer(system: string, user: string, o: SimOptions): string {
  if (system.split("\n", 1)[0]!.trim() === JUDGE_SIGNATURE) return simJudge(user);
  const kind = promptKind(system);
  const k = o.knowledge;
  const opts = { knowledge: k, unhelpfulRate: o.unhelpfulRate, seed: o.seed };
  switch (kind) {
    case "failureAnalyst":
      return simAnalyst("failure", modeOf(system), system, user, opts);
    case "successAnalyst":
      return simAnalyst("success", modeOf(system), system, user, opts);
    case "mergeFailure":
    case "mergeSuccess":
      return simMerge(modeOf(system), user, "Patches to merge", k);
    case "mergeFinal":
      return simMerge(modeOf(system), user, "Two Pre-merged Groups", k);
    case "ranking":
      return simRanking(user);
    case "lrAutonomous":
      return simLearningRate(user);
    case "rewrite":
      return simRewrite(user, k);
    case "slowUpdate":
      return simSlowUpdate(user, k);
    case "metaSkill":
      return simMetaSkill(user, k);
    case "consolidate":
      return simConsolidate(user);
    case null:
      return "I can only answer SkillOpt optimizer prompts.";
  }
}

function textOf(req: CompletionRequest): string {
  return req.messages
    .map((m) =>
      typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("\n"),
    )
    .join("\n");
}

/** Answers any prompt as the given role (pure; no latency). */
export function simAnswer(system: string, user: string, o: SimOptions): string {
  if (o.role === "target")
    return simTargetAnswer(system, user, { knowledge: o.knowledge, slipRate: o.slipRate, seed: o.seed });
  if (o.malformedRate > 0 && draw(o.seed, "malformed", promptKind(system) ?? "", user) < o.malformedRate) {
    return "Here are my edits: {op: append, content: the answer must be short,}";
  }
  return simOptimizerAnswer(system, user, o);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason ?? new Error("aborted"));
    };
    // The listener goes once the sleep is over: a listener left on a timeout or combined signal keeps the
    // signal, its timer and this closure alive until the signal aborts (the target's deadline, 120 s).
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function createSimClient(o: SimOptions): ModelClient {
  return {
    backend: "sim",
    model: o.model ?? (o.role === "target" ? "sim-target" : "sim-optimizer"),
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      // A real model answers over the network, which hands the event loop back on every call. The sim
      // answers from memory, so it does so explicitly: otherwise a run is one unbroken chain of promise
      // jobs, and the cancel poll, heartbeats, queue lock renewals and SIGTERM wait for the whole run.
      if (o.latencyMs > 0) await sleep(o.latencyMs, req.signal);
      else await nextLoopTurn();
      if (req.signal?.aborted) throw req.signal.reason ?? new Error("aborted");
      const user = textOf(req);
      const full = simAnswer(req.system, user, o);
      const rate = o.role === "target" ? (o.truncateRate ?? 0) : 0;
      const truncated = rate > 0 && draw(o.seed, "truncate", req.maxTokens, targetSkill(req.system), user) < rate;
      const text = truncated ? full.slice(0, Math.floor(full.length / 2)) : full;
      return {
        text,
        usage: { promptTokens: approxTokens(req.system) + approxTokens(user), completionTokens: approxTokens(text) },
        latencyMs: o.latencyMs,
        cached: false,
        truncated,
      };
    },
  };
}

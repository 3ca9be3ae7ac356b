/**
 * Prompts for the mock server's tests (imported by tests only): a SearchQA target prompt built by the
 * env's own builders, and a failure-analyst prompt built by the engine's, around sample item sq-002,
 * whose hidden annotation needs the "short_span" rule.
 */
import { analystSystemPrompt } from "../engine/prompts/analyst";
import { buildSearchQaSystemPrompt, buildSearchQaUserPrompt } from "../envs/searchqa";
import { searchQaSample, searchQaSimRules } from "../envs";
import { afterEach } from "vitest";
import { startMockLlmServer } from "./server";
import type { MockLlmOptions, MockLlmServer } from "./types";

const item = searchQaSample().train.find((i) => i.id === "sq-002")!;
export const QUESTION = String(item.question);
const shortSpan = searchQaSimRules().find((r) => r.id === "short_span")!;

/** Guided answer vs the characteristic wrong answer of sq-002 (from its sim annotation). */
export const GUIDED = "viola";
export const UNGUIDED = "Ilse Varga mainly wrote for the viola.";

export function targetPrompt(guided: boolean): { system: string; user: string } {
  const skill = ["# SearchQA skill", "- Read every passage before answering.", guided ? `- ${shortSpan.guidance}` : ""]
    .filter(Boolean)
    .join("\n");
  return {
    system: buildSearchQaSystemPrompt(skill),
    user: buildSearchQaUserPrompt(QUESTION, String(item.context)),
  };
}

export function analystPrompt(): { system: string; user: string } {
  const system = analystSystemPrompt({
    kind: "failure",
    mode: "patch",
    taxonomy: ["rule_missing", "rule_wrong", "answer_format", "other"],
    skillAware: false,
    appendixSource: "both",
  });
  const user = [
    "## Current Skill\n<skill>\n# SearchQA skill\n- Read every passage before answering.\n</skill>",
    "## Edit Budget\nPropose at most L=2 edits; fewer is better when fewer suffice.",
    "## Failed Trajectories (1 total)",
    "### Trajectory 1 (id=sq-002)",
    `Question: ${QUESTION}`,
    `Prediction: ${UNGUIDED}`,
    "Failure reason: exact match failed",
  ].join("\n");
  return { system, user };
}

/** Starts a server for one test and closes it after the test. */
export function useMockServer(): (opts?: MockLlmOptions) => Promise<MockLlmServer> {
  const open: MockLlmServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (opts = {}) => {
    const server = await startMockLlmServer({ slipRate: 0, ...opts });
    open.push(server);
    return server;
  };
}

export async function postJson(
  url: string,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: init.signal,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as unknown };
}

export function chatBody(p: { system: string; user: string }, model = "sim-target"): unknown {
  return {
    model,
    messages: [
      { role: "system", content: p.system },
      { role: "user", content: p.user },
    ],
  };
}

/** Model settings that point one SDK backend (or the Responses flavour of `openai`) at a mock server. */
export function mockModelSettings(backend: string, url: string): Record<string, unknown> {
  switch (backend) {
    case "openai":
      return { backend, target: "gpt-4o", openai_base_url: `${url}/v1` };
    case "openai-responses":
      return { backend: "openai", target: "gpt-5.3-codex", openai_base_url: `${url}/v1` };
    case "azure-openai":
      return { backend, target: "gpt-4o", azure_openai_endpoint: url, azure_openai_deployment: "sim-deployment" };
    case "anthropic":
      return { backend, target: "claude-sonnet-4-6", anthropic_base_url: url };
    default:
      return {
        backend: "openai-compatible",
        target: "sim-target",
        compatible_preset: "vllm",
        compatible_base_url: `${url}/v1`,
      };
  }
}

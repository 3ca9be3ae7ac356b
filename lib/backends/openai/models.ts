/**
 * What OpenAI model names accept, by family: which reasoning efforts (none for non-reasoning models, so
 * `reasoning_effort` is never sent to them) and which models the original routed to the Responses API.
 * Azure deployments are judged by the role's model name, the same way.
 */

/** Deployments the original sent through the Responses API (exact, or `<name>-…`). */
const RESPONSES_MODELS = [
  "gpt-5.3-codex",
  "gpt-5.2-codex",
  "gpt-5.1-codex",
  "gpt-5-codex",
  "codex-mini",
  "gpt-5.4-pro",
];

export function prefersResponses(model: string): boolean {
  const m = model.trim().toLowerCase();
  return RESPONSES_MODELS.some((r) => m === r || m.startsWith(`${r}-`));
}

const O_SERIES = ["low", "medium", "high"] as const;
const GPT5 = ["minimal", "low", "medium", "high"] as const;
const GPT51 = ["none", "low", "medium", "high"] as const;
const GPT52_PLUS = ["none", "low", "medium", "high", "xhigh"] as const;
const CODEX = ["low", "medium", "high", "xhigh"] as const;

/**
 * The reasoning efforts `model` accepts; empty for models that take no reasoning parameter (gpt-4o,
 * gpt-4.1, the `*-chat-latest` aliases, unknown families).
 */
export function acceptedEfforts(model: string): readonly string[] {
  const m = model.trim().toLowerCase();
  if (m.includes("chat-latest") || m.startsWith("gpt-4") || m.startsWith("gpt-3")) return [];
  if (/^o[134](-|$)/.test(m)) return O_SERIES;
  if (m.includes("codex")) return CODEX;
  if (/^gpt-5-pro/.test(m)) return ["high"];
  if (/^gpt-5(-|$)/.test(m)) return GPT5;
  if (/^gpt-5\.1(-|$)/.test(m)) return GPT51;
  if (/^gpt-5\.\d+(-|$)/.test(m) || /^gpt-[6-9]/.test(m)) return GPT52_PLUS;
  return [];
}

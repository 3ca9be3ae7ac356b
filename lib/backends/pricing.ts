/**
 * Prices per million tokens by backend and model, for estimates, cost accounting and the budget. A model
 * that is not listed has an unknown price (never 0). The simulated model costs nothing. Users add or
 * override entries per run with `model.price_table` ("backend:model" → {inputPerMTok, outputPerMTok}).
 */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

export type PriceTable = Record<string, Price>;

const p = (inputPerMTok: number, outputPerMTok: number): Price => ({ inputPerMTok, outputPerMTok });

/**
 * OpenAI list prices (USD per 1M tokens, standard tier, uncached input), as published by OpenAI;
 * Azure OpenAI global deployments bill the same list prices, so they apply to both backends. Check
 * the provider's page before relying on them: prices change, and long-context tiers cost more.
 */
const OPENAI_MODELS: Record<string, Price> = {
  "gpt-5.5": p(5, 30),
  "gpt-5.5-pro": p(30, 180),
  "gpt-5.4": p(2.5, 15),
  "gpt-5.4-mini": p(0.75, 4.5),
  "gpt-5.4-nano": p(0.2, 1.25),
  "gpt-5.4-pro": p(30, 180),
  "gpt-5.2": p(1.75, 14),
  "gpt-5.1": p(1.25, 10),
  "gpt-5": p(1.25, 10),
  "gpt-5-mini": p(0.25, 2),
  "gpt-5-nano": p(0.05, 0.4),
  "gpt-4.1": p(2, 8),
  "gpt-4.1-mini": p(0.4, 1.6),
  "gpt-4.1-nano": p(0.1, 0.4),
  "gpt-4o": p(2.5, 10),
  "gpt-4o-mini": p(0.15, 0.6),
  o3: p(2, 8),
  "o3-mini": p(1.1, 4.4),
  "o4-mini": p(1.1, 4.4),
};

/** Anthropic list prices (USD per 1M tokens, base input, no prompt-cache writes or reads). */
const ANTHROPIC_MODELS: Record<string, Price> = {
  "claude-opus-4-6": p(5, 25),
  "claude-opus-4-5": p(5, 25),
  "claude-opus-4-1": p(15, 75),
  "claude-opus-4-0": p(15, 75),
  "claude-opus-4": p(15, 75),
  "claude-sonnet-4-6": p(3, 15),
  "claude-sonnet-4-5": p(3, 15),
  "claude-sonnet-4-0": p(3, 15),
  "claude-sonnet-4": p(3, 15),
  "claude-haiku-4-5": p(1, 5),
  "claude-3-5-haiku": p(0.8, 4),
};

function entries(backends: string[], models: Record<string, Price>): PriceTable {
  const out: PriceTable = {};
  for (const b of backends) for (const [m, price] of Object.entries(models)) out[`${b}:${m}`] = price;
  return out;
}

/** Editable table: `backend:model`, `*:model` (any backend) or `backend:*` (any model). */
export const PRICE_TABLE: PriceTable = {
  "sim:*": p(0, 0),
  ...entries(["openai", "azure-openai"], OPENAI_MODELS),
  ...entries(["anthropic"], ANTHROPIC_MODELS),
};

/** Dated snapshots share their family's price: gpt-4o-2024-08-06 → gpt-4o, claude-haiku-4-5-20251001 → claude-haiku-4-5. */
function undated(model: string): string {
  return model.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, "");
}

export function priceOf(backend: string, model: string, table: PriceTable = PRICE_TABLE): Price | null {
  for (const m of model === undated(model) ? [model] : [model, undated(model)]) {
    const hit = table[`${backend}:${m}`] ?? table[`*:${m}`];
    if (hit) return hit;
  }
  return table[`${backend}:*`] ?? null;
}

/** The built-in table with a run's `model.price_table` entries layered on top (already validated). */
export function withUserPrices(user: PriceTable | undefined, base: PriceTable = PRICE_TABLE): PriceTable {
  return user && Object.keys(user).length > 0 ? { ...base, ...user } : base;
}

/** USD of a token count at a price. */
export function costAt(price: Price, promptTokens: number, completionTokens: number): number {
  return (promptTokens * price.inputPerMTok + completionTokens * price.outputPerMTok) / 1e6;
}

/** Which role pays for a stage: rollouts are the target's, everything else the optimizer's. */
export function roleOfStage(stage: string): "optimizer" | "target" {
  return stage === "rollout" ? "target" : "optimizer";
}

/**
 * The cost of per-stage token counts, or null when a price is unknown for a role that was used (an
 * unknown price is never counted as 0).
 */
export function costOf(
  tokens: Record<string, { prompt_tokens: number; completion_tokens: number }>,
  roles: Record<"optimizer" | "target", { backend: string; model: string }>,
  table: PriceTable = PRICE_TABLE,
): number | null {
  let total = 0;
  for (const [stage, t] of Object.entries(tokens)) {
    const r = roles[roleOfStage(stage)];
    const price = priceOf(r.backend, r.model, table);
    if (!price) return null;
    total += costAt(price, t.prompt_tokens, t.completion_tokens);
  }
  return total;
}

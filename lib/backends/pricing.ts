/**
 * Prices per million tokens by backend and model, for estimates and cost accounting. A model that is not
 * listed has an unknown price (never 0). The simulated model costs nothing.
 */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** Editable table: `backend:model` or `*:model`. Prices in USD; keep in step with the providers' pages. */
export const PRICE_TABLE: Record<string, Price> = {
  "sim:*": { inputPerMTok: 0, outputPerMTok: 0 },
};

export function priceOf(backend: string, model: string, table: Record<string, Price> = PRICE_TABLE): Price | null {
  return table[`${backend}:${model}`] ?? table[`*:${model}`] ?? table[`${backend}:*`] ?? null;
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
  table: Record<string, Price> = PRICE_TABLE,
): number | null {
  let total = 0;
  for (const [stage, t] of Object.entries(tokens)) {
    const r = roles[roleOfStage(stage)];
    const price = priceOf(r.backend, r.model, table);
    if (!price) return null;
    total += (t.prompt_tokens * price.inputPerMTok + t.completion_tokens * price.outputPerMTok) / 1e6;
  }
  return total;
}

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

import { describe, expect, it } from "vitest";
import { costOf, PRICE_TABLE, priceOf, withUserPrices } from "./pricing";

const table = { "sim:*": { inputPerMTok: 0, outputPerMTok: 0 }, "*:gpt-x": { inputPerMTok: 2, outputPerMTok: 8 } };

describe("pricing", () => {
  it("looks prices up by backend and model with wildcards; unknown is null", () => {
    expect(priceOf("sim", "anything", table)).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
    expect(priceOf("openai", "gpt-x", table)).toEqual({ inputPerMTok: 2, outputPerMTok: 8 });
    expect(priceOf("openai", "gpt-y", table)).toBeNull();
  });

  it("sums cost per stage by the paying role, and is unknown (null) when any used price is unknown", () => {
    const tokens = {
      rollout: { prompt_tokens: 1e6, completion_tokens: 0 },
      analyst: { prompt_tokens: 0, completion_tokens: 1e6 },
    };
    expect(
      costOf(
        tokens,
        { optimizer: { backend: "openai", model: "gpt-x" }, target: { backend: "sim", model: "s" } },
        table,
      ),
    ).toBe(8);
    expect(
      costOf(
        tokens,
        { optimizer: { backend: "openai", model: "gpt-y" }, target: { backend: "sim", model: "s" } },
        table,
      ),
    ).toBeNull();
    expect(
      costOf({}, { optimizer: { backend: "openai", model: "gpt-y" }, target: { backend: "sim", model: "s" } }, table),
    ).toBe(0);
  });
});

describe("price table", () => {
  it("lists current OpenAI and Anthropic models; dated snapshots share their family's price", () => {
    expect(priceOf("openai", "gpt-5.5")).toEqual({ inputPerMTok: 5, outputPerMTok: 30 });
    expect(priceOf("azure-openai", "gpt-4o-2024-08-06")).toEqual({ inputPerMTok: 2.5, outputPerMTok: 10 });
    expect(priceOf("anthropic", "claude-haiku-4-5-20251001")).toEqual({ inputPerMTok: 1, outputPerMTok: 5 });
    expect(priceOf("openai-compatible", "gpt-5.5")).toBeNull();
    expect(priceOf("openai", "gpt-unknown")).toBeNull();
  });

  it("a run's price_table adds and overrides entries", () => {
    const t = withUserPrices({
      "openai-compatible:*": { inputPerMTok: 0, outputPerMTok: 0 },
      "openai:gpt-5.5": { inputPerMTok: 1, outputPerMTok: 1 },
    });
    expect(priceOf("openai-compatible", "llama3", t)).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
    expect(priceOf("openai", "gpt-5.5", t)).toEqual({ inputPerMTok: 1, outputPerMTok: 1 });
    expect(priceOf("openai", "gpt-5.5")).toEqual({ inputPerMTok: 5, outputPerMTok: 30 });
    expect(withUserPrices(undefined)).toBe(PRICE_TABLE);
  });
});

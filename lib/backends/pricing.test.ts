import { describe, expect, it } from "vitest";
import { costOf, priceOf } from "./pricing";

const table = { "sim:*": { inputPerMTok: 0, outputPerMTok: 0 }, "*:gpt-x": { inputPerMTok: 2, outputPerMTok: 8 } };

describe("pricing", () => {
  it("looks prices up by backend and model with wildcards; unknown is null", () => {
    expect(priceOf("sim", "anything", table)).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
    expect(priceOf("openai", "gpt-x", table)).toEqual({ inputPerMTok: 2, outputPerMTok: 8 });
    expect(priceOf("openai", "gpt-y", table)).toBeNull();
  });

  it("sums cost per stage by the paying role, and is unknown (null) when any used price is unknown", () => {
    const tokens = { rollout: { prompt_tokens: 1e6, completion_tokens: 0 }, analyst: { prompt_tokens: 0, completion_tokens: 1e6 } };
    expect(costOf(tokens, { optimizer: { backend: "openai", model: "gpt-x" }, target: { backend: "sim", model: "s" } }, table)).toBe(8);
    expect(costOf(tokens, { optimizer: { backend: "openai", model: "gpt-y" }, target: { backend: "sim", model: "s" } }, table)).toBeNull();
    expect(costOf({}, { optimizer: { backend: "openai", model: "gpt-y" }, target: { backend: "sim", model: "s" } }, table)).toBe(0);
  });
});

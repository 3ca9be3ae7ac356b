import { describe, expect, it } from "vitest";
import { buildTransferMatrix, type TransferCellView } from "../lib/contracts/transfer";
import { parseTarget } from "./cli/eval-transfer";
import { formatTransferTable } from "./cli/transfer-table";

describe("eval --target", () => {
  it("splits BACKEND:MODEL at the first colon (models may hold / and :)", () => {
    expect(parseTarget("sim:sim-target")).toEqual({ backend: "sim", model: "sim-target" });
    expect(parseTarget("openai-compatible:qwen/qwen3:free")).toEqual({
      backend: "openai-compatible",
      model: "qwen/qwen3:free",
    });
  });
  it("refuses a target without backend or model, naming the flag", () => {
    for (const bad of ["sim", ":x", "sim:", ""])
      expect(() => parseTarget(bad)).toThrow(/--target must be BACKEND:MODEL/);
  });
  it("prints one aligned line per target with seed, best, delta, calls and cost", () => {
    const cell = (skill: "seed" | "best", hard: number, costUsd: number | null): TransferCellView => ({
      skill,
      targetBackend: "sim",
      targetModel: "sim-target",
      status: "succeeded",
      hard,
      soft: hard,
      nItems: 4,
      nUnanswered: 0,
      calls: 4,
      promptTokens: 1,
      completionTokens: 1,
      costUsd,
      errorMessage: null,
    });
    const text = formatTransferTable(buildTransferMatrix([cell("seed", 0.25, 0), cell("best", 0.75, null)]));
    expect(text.split("\n")).toEqual([
      "target          seed   best   delta   calls  cost",
      "sim:sim-target  0.250  0.750  +0.500  8      unknown",
      "",
    ]);
  });
});

import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { buildTransferMatrix, type TransferCellView } from "../contracts/transfer";
import { transferCsv } from "./transfer-csv";

const cell = (over: Partial<TransferCellView>): TransferCellView => ({
  skill: "best",
  targetBackend: "sim",
  targetModel: "sim-target",
  status: "succeeded",
  hard: 0.5,
  soft: 0.6,
  nItems: 10,
  nUnanswered: 0,
  calls: 10,
  promptTokens: 100,
  completionTokens: 20,
  costUsd: 0,
  errorMessage: null,
  ...over,
});

describe("buildTransferMatrix", () => {
  it("pairs each target's seed and best cells, with best − seed and the summed cost, ordered by target", () => {
    const rows = buildTransferMatrix([
      cell({ targetModel: "zeta", skill: "best", hard: 0.75, costUsd: 0.25, calls: 4 }),
      cell({ targetModel: "alpha", skill: "seed", hard: 0.2, costUsd: 0.5, calls: 10 }),
      cell({ targetModel: "alpha", skill: "best", hard: 0.7, costUsd: 0.75, calls: 10 }),
      cell({ targetModel: "zeta", skill: "seed", hard: 0.8, costUsd: null, calls: 4 }),
    ]);
    expect(rows.map((r) => r.model)).toEqual(["alpha", "zeta"]);
    expect(rows[0]!.delta).toBeCloseTo(0.5, 12);
    expect(rows[0]!.costUsd).toBe(1.25);
    expect(rows[0]!.calls).toBe(20);
    // A negative transfer is kept negative; one unknown price makes the row's cost unknown.
    expect(rows[1]!.delta).toBeCloseTo(-0.05, 12);
    expect(rows[1]!.costUsd).toBeNull();
  });

  it("has no delta until both cells have succeeded", () => {
    const [row] = buildTransferMatrix([
      cell({ skill: "seed", hard: 0.4 }),
      cell({ skill: "best", status: "running", hard: null }),
    ]);
    expect(row!.delta).toBeNull();
    const [failed] = buildTransferMatrix([cell({ skill: "seed", status: "failed", hard: null, errorMessage: "x" })]);
    expect(failed!.best).toBeNull();
    expect(failed!.delta).toBeNull();
  });
});

describe("transferCsv", () => {
  it("writes one line per target with the matrix's columns, quoting what needs it", () => {
    const rows = buildTransferMatrix([
      cell({ targetBackend: "openai-compatible", targetModel: 'qwen, "plus"', skill: "seed", hard: 0.25 }),
      cell({
        targetBackend: "openai-compatible",
        targetModel: 'qwen, "plus"',
        skill: "best",
        hard: 0.5,
        costUsd: null,
      }),
    ]);
    const csv = transferCsv(rows);
    expect(csv.split("\n")[0]).toBe(
      "backend,model,seed_hard,best_hard,delta_hard,seed_soft,best_soft,n_items,unanswered_seed,unanswered_best,calls,cost_usd,status",
    );
    expect(csv).toContain('"qwen, ""plus"""');
    const [rec] = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(rec).toMatchObject({
      model: 'qwen, "plus"',
      seed_hard: "0.25",
      best_hard: "0.5",
      delta_hard: "0.25",
      cost_usd: "",
      calls: "20",
      status: "succeeded/succeeded",
    });
  });
});

import { describe, expect, it } from "vitest";
import { configGroupsOf, isSeedKey } from "./compare";

describe("compare: configs equal apart from their seeds", () => {
  it("knows the seed keys", () => {
    expect(["train.seed", "env.split_seed", "model.sim_seed"].every(isSeedKey)).toBe(true);
    expect(["train.seeds_total", "env.seedling", "optimizer.lr"].some(isSeedKey)).toBe(false);
  });

  it("numbers groups in order and ignores only seed keys", () => {
    const base = { "train.seed": "1", "env.split_seed": "42", "optimizer.lr": "4" };
    expect(
      configGroupsOf([
        base,
        { ...base, "train.seed": "2" },
        { ...base, "optimizer.lr": "8" },
        { ...base, "env.split_seed": "7" },
        { ...base, "optimizer.lr": "8", "train.seed": "3" },
      ]),
    ).toEqual([1, 1, 2, 1, 2]);
  });
});

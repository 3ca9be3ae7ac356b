import { describe, expect, it } from "vitest";
import type { DbTx } from "./client";
import { requireRun } from "./runs";

/** A client whose run lookups answer from `ids` and record what they were asked to select. */
function fakeDb(ids: string[]) {
  const asked: unknown[] = [];
  const db = {
    run: {
      findUnique: async (args: { where: { id: string }; select?: unknown }) => {
        asked.push(args.select);
        return ids.includes(args.where.id) ? { id: args.where.id, configJson: "{…}", seedSkill: "…" } : null;
      },
    },
  } as unknown as DbTx;
  return { db, asked };
}

describe("requireRun", () => {
  it("answers NOT_FOUND for an unknown run and nothing for a known one, reading only the id", async () => {
    const { db, asked } = fakeDb(["r1"]);
    await expect(requireRun("r1", { db })).resolves.toBeUndefined();
    await expect(requireRun("nope", { db })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(asked).toEqual([{ id: true }, { id: true }]);
  });
});

import { describe, expect, it } from "vitest";
import { RunAnnotationsSchema, RunsTableQuerySchema, splitTagInput, testGainOf } from "./run-list";
import { RUN_STATUSES } from "./run-status";

const issue = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) => {
  const i = r.error!.issues[0]!;
  return `${i.path.join(".")}: ${i.message}`;
};

describe("run tags and note", () => {
  it("normalises tags (trimmed, lower-case, duplicates once) and an empty note to null", () => {
    expect(RunAnnotationsSchema.parse({ tags: [" Baseline", "baseline", "seed:2"], note: "   " })).toEqual({
      tags: ["baseline", "seed:2"],
      note: null,
    });
    expect(RunAnnotationsSchema.parse({ tags: [], note: " ok " }).note).toBe("ok");
  });

  it("names the offending field", () => {
    expect(issue(RunAnnotationsSchema.safeParse({ tags: ["a", "b c"], note: null }))).toMatch(/^tags\.1: .*no spaces/);
    expect(issue(RunAnnotationsSchema.safeParse({ tags: ["x".repeat(33)], note: null }))).toMatch(/^tags\.0: .*32/);
    expect(
      issue(RunAnnotationsSchema.safeParse({ tags: Array.from({ length: 13 }, (_, i) => `t${i}`), note: null })),
    ).toMatch(/^tags: at most 12/);
    expect(issue(RunAnnotationsSchema.safeParse({ tags: [], note: "x".repeat(2001) }))).toMatch(/^note: .*2000/);
    expect(issue(RunAnnotationsSchema.safeParse({ note: null }))).toMatch(/^tags: /);
  });

  it("splits typed tags on commas and spaces", () => {
    expect(splitTagInput(" a, b  c,,d ")).toEqual(["a", "b", "c", "d"]);
    expect(splitTagInput("  ")).toEqual([]);
  });
});

describe("runs table query", () => {
  it("defaults to the newest runs, 50 per page, and refuses unknown sort keys and page 0", () => {
    expect(RunsTableQuerySchema.parse({})).toEqual({ sort: "started", dir: "desc", page: 1, limit: 50 });
    expect(issue(RunsTableQuerySchema.safeParse({ sort: "password" }))).toMatch(/^sort: /);
    expect(issue(RunsTableQuerySchema.safeParse({ page: "0" }))).toMatch(/^page: pages start at 1/);
    expect(RunsTableQuerySchema.parse({ page: "201", limit: "25" })).toMatchObject({ page: 201, limit: 25 });
  });

  it("computes the test gain only when both scores are known", () => {
    expect(testGainOf({ testInitial: 0.5, testBest: 0.75 })).toBe(0.25);
    expect(testGainOf({ testInitial: null, testBest: 0.75 })).toBeNull();
  });
});

describe("the runs table's status filter", () => {
  it("accepts every run status (the one list the database and the filter menu use) and names the field for others", () => {
    for (const status of RUN_STATUSES) expect(RunsTableQuerySchema.parse({ status }).status).toBe(status);
    expect(issue(RunsTableQuerySchema.safeParse({ status: "done" }))).toMatch(/^status: /);
  });
});

import { describe, expect, it } from "vitest";
import { assertCronPattern, cronPatternProblem, nextCronRun } from "./schedule";

describe("Sleep schedule patterns", () => {
  it("accepts five-field cron patterns and computes the next run", () => {
    expect(cronPatternProblem("0 3 * * *")).toBeNull();
    expect(cronPatternProblem("*/30 1-5 * * 1-5")).toBeNull();
    expect(nextCronRun("0 3 * * *", new Date("2026-12-01T20:00:00Z"), "UTC")).toBe("2026-12-02T03:00:00.000Z");
    expect(nextCronRun("", new Date())).toBeNull();
  });

  it("refuses control characters, seconds fields and nonsense, naming the field", () => {
    expect(cronPatternProblem("0 3 * * *\n0 4 * * *")).toMatch(/control characters/);
    expect(cronPatternProblem("* * * * * *")).toMatch(/5 fields/);
    expect(cronPatternProblem("61 3 * * *")).toMatch(/not a valid cron pattern/);
    expect(cronPatternProblem("every night")).toMatch(/5 fields/);
    expect(() => assertCronPattern("0 25 * * *")).toThrow(/^cronPattern: is not a valid cron pattern/);
    let thrown: unknown = null;
    try {
      assertCronPattern("nope", "schedule");
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: "INVALID_REQUEST", field: "schedule" });
  });
});

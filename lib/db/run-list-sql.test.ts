import { describe, expect, it } from "vitest";
import { RunsTableQuerySchema } from "../contracts/run-list";
import { containsPattern, countQuery, pageQuery, runColumns, sortExpr } from "./run-list-sql";

const ID = runColumns(["id"]);

describe("runs table SQL", () => {
  it("escapes LIKE wildcards so a search for 50% finds the text 50%", () => {
    expect(containsPattern("50%_A\\b")).toBe("%50\\%\\_a\\\\b%");
  });

  it("binds every user value as a parameter, never as SQL text", () => {
    const q = RunsTableQuerySchema.parse({
      q: 'x\'; DROP TABLE "Run";--',
      status: "failed",
      tag: "t",
      page: "3",
      limit: "25",
    });
    const sql = pageQuery(q, "sqlite", ID);
    expect(sql.sql).not.toContain("DROP");
    expect(sql.values).toContain("failed");
    expect(sql.values).toContain("t");
    expect(sql.values).toContain(`%x'; drop table "run";--%`);
    expect(sql.values.slice(-2)).toEqual([25, 50]); // LIMIT, OFFSET of page 3
    expect(countQuery(q).sql).not.toMatch(/LIMIT/);
  });

  it("orders missing values last, then newest first and by id, so pages never overlap", () => {
    const sql = pageQuery(RunsTableQuerySchema.parse({ sort: "testGain", dir: "asc" }), "postgresql", ID).sql;
    expect(sql).toMatch(
      /ORDER BY CASE WHEN \(r\."testBest" - r\."testInitial"\) IS NULL THEN 1 ELSE 0 END, \(r\."testBest" - r\."testInitial"\) ASC, r\."createdAt" DESC, r\."id" DESC/,
    );
  });

  it("selects the named columns", () => {
    const sql = pageQuery(RunsTableQuerySchema.parse({}), "sqlite", runColumns(["id", "name"])).sql;
    expect(sql).toMatch(/^SELECT r\."id", r\."name" FROM "Run" r/);
  });

  it("computes the duration with each database's date arithmetic", () => {
    expect(sortExpr("duration", "sqlite").sql).toContain("julianday");
    expect(sortExpr("duration", "postgresql").sql).toContain("EXTRACT(EPOCH");
    expect(sortExpr("tokens", "sqlite").sql).toBe('(r."promptTokens" + r."completionTokens")');
  });
});

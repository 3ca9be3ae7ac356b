import { describe, expect, it } from "vitest";
import { DEFAULT_VIEW, pageCount, parseRunsView, runsQueryString, toggleSort, withFilter } from "./runs-view";

const parse = (q: string) => parseRunsView(new URLSearchParams(q));

describe("runs table view in the URL", () => {
  it("reads a full view and falls back to defaults for unknown values", () => {
    expect(parse("status=failed&q=%20qwen%20&sort=testGain&dir=asc&page=3&limit=100&tag=a")).toEqual({
      status: "failed",
      env: undefined,
      tag: "a",
      q: "qwen",
      sort: "testGain",
      dir: "asc",
      page: 3,
      limit: 100,
    });
    expect(parse("sort=drop table&dir=up&page=-2&limit=7")).toEqual({
      ...DEFAULT_VIEW,
      env: undefined,
      status: undefined,
      tag: undefined,
      q: undefined,
    });
    expect(parse("page=1.5").page).toBe(1);
  });

  it("writes only what differs from the defaults for the page, everything for the API", () => {
    expect(runsQueryString(DEFAULT_VIEW)).toBe("");
    expect(runsQueryString({ ...DEFAULT_VIEW, q: "a b", page: 2 })).toBe("q=a+b&page=2");
    expect(runsQueryString(DEFAULT_VIEW, { forApi: true })).toBe("sort=started&dir=desc&page=1&limit=50");
    const v = { ...DEFAULT_VIEW, env: "searchqa", sort: "cost" as const, dir: "asc" as const };
    expect(parse(runsQueryString(v))).toMatchObject(v);
  });

  it("flips the direction on the same column and starts text columns A→Z, numbers largest first", () => {
    const onName = toggleSort({ ...DEFAULT_VIEW, page: 4 }, "name");
    expect([onName.sort, onName.dir, onName.page]).toEqual(["name", "asc", 1]);
    expect(toggleSort(onName, "name").dir).toBe("desc");
    expect(toggleSort(onName, "testGain").dir).toBe("desc");
  });

  it("goes back to page 1 when a filter changes, and clears an emptied one", () => {
    const v = withFilter({ ...DEFAULT_VIEW, page: 9, q: "x" }, "q", "  ");
    expect([v.q, v.page]).toEqual([undefined, 1]);
    expect(withFilter(DEFAULT_VIEW, "tag", "baseline").tag).toBe("baseline");
  });

  it("counts pages, at least one", () => {
    expect([pageCount(0, 50), pageCount(50, 50), pageCount(51, 50), pageCount(10_000, 50)]).toEqual([1, 1, 2, 200]);
  });
});

import { describe, expect, it } from "vitest";
import { endedBefore, inScope, isoFromEpoch, makeSinceBound, normalizeSqlTime, pathRules } from "./scope";

const posix = pathRules("linux");
const win = pathRules("win32");

describe("scope", () => {
  it("invoked keeps the project, folders below it and folders above it, never a sibling with a common prefix", () => {
    const scope = { kind: "invoked" as const, project: "/work/app" };
    expect(inScope("/work/app", scope, posix)).toBe(true);
    expect(inScope("/work/app/pkg/", scope, posix)).toBe(true);
    expect(inScope("/work", scope, posix)).toBe(true);
    expect(inScope("/work/app-2", scope, posix)).toBe(false);
    expect(inScope("", scope, posix)).toBe(false);
  });

  it("list keeps exactly the listed folders; all keeps everything, even an unknown project", () => {
    const list = { kind: "list" as const, projects: ["/a", "/b/c"] };
    expect(inScope("/b/c/", list, posix)).toBe(true);
    expect(inScope("/a/x", list, posix)).toBe(false);
    expect(inScope("", { kind: "all" }, posix)).toBe(true);
  });

  it("compares Windows paths without regard to case or separator style", () => {
    expect(inScope("c:\\Work\\App\\src", { kind: "invoked", project: "C:/work/app" }, win)).toBe(true);
  });
});

describe("since", () => {
  const clock = { now: () => Date.parse("2026-03-10T00:00:00Z") };

  it("a global bound applies to everything", () => {
    const b = makeSinceBound({ kind: "after", iso: "2026-03-01T00:00:00Z" }, undefined, posix);
    expect(b.boundFor("/x")).toBe(Date.parse("2026-03-01T00:00:00Z"));
    expect(b.lowest).toBe(b.boundFor("/y"));
  });

  it("checkpoints: the most specific related folder wins; no checkpoint means the lookback window", () => {
    const b = makeSinceBound(
      {
        kind: "checkpoints",
        checkpoints: { "/w": "2026-03-01T00:00:00Z", "/w/app": "2026-03-05T00:00:00Z" },
        lookbackHours: 48,
      },
      clock,
      posix,
    );
    expect(b.boundFor("/w/app/src")).toBe(Date.parse("2026-03-05T00:00:00Z"));
    expect(b.boundFor("/w/other")).toBe(Date.parse("2026-03-01T00:00:00Z"));
    expect(b.boundFor("/elsewhere")).toBe(Date.parse("2026-03-08T00:00:00Z"));
    expect(b.lowest).toBe(Date.parse("2026-03-01T00:00:00Z"));
    const unbounded = makeSinceBound(
      { kind: "checkpoints", checkpoints: { "/w": "2026-03-01T00:00:00Z" }, lookbackHours: 0 },
      clock,
      posix,
    );
    expect(unbounded.boundFor("/elsewhere")).toBeNull();
    expect(unbounded.lowest).toBeNull();
  });

  it("a session with an unknown end is kept", () => {
    expect(endedBefore("", 1)).toBe(false);
    expect(endedBefore("2026-01-01T00:00:00Z", Date.parse("2026-01-02T00:00:00Z"))).toBe(true);
    expect(endedBefore("2026-01-02T00:00:00Z", Date.parse("2026-01-02T00:00:00Z"))).toBe(false);
  });
});

describe("times", () => {
  it("SQLite timestamps become ISO with T and Z; epoch seconds and milliseconds become ISO", () => {
    expect(normalizeSqlTime("2026-03-17 09:00:00")).toBe("2026-03-17T09:00:00Z");
    expect(normalizeSqlTime("2026-03-17T09:00:00+02:00")).toBe("2026-03-17T09:00:00+02:00");
    expect(normalizeSqlTime(null)).toBe("");
    expect(isoFromEpoch(1773046800000)).toBe("2026-03-09T09:00:00.000Z");
    expect(isoFromEpoch(1773046800)).toBe("2026-03-09T09:00:00.000Z");
    expect(isoFromEpoch(-1)).toBe("");
  });
});

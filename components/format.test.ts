import { describe, expect, it } from "vitest";
import {
  DASH,
  elapsedSeconds,
  formatCost,
  formatCount,
  formatDelta,
  formatDuration,
  formatRelative,
  formatRole,
  formatScore,
  formatTimestamp,
  progressPercent,
} from "./format";

describe("formatScore", () => {
  it("shows three decimals and keeps a real zero", () => {
    expect(formatScore(0.7344)).toBe("0.734");
    expect(formatScore(1)).toBe("1.000");
    expect(formatScore(0)).toBe("0.000");
  });
  it("renders unknown as a dash", () => {
    expect(formatScore(null)).toBe(DASH);
    expect(formatScore(undefined)).toBe(DASH);
    expect(formatScore(Number.NaN)).toBe(DASH);
  });
});

describe("formatDelta", () => {
  it("signs differences", () => {
    expect(formatDelta(0.05)).toBe("+0.050");
    expect(formatDelta(-0.0131)).toBe("−0.013");
    expect(formatDelta(0.0001)).toBe("±0.000");
  });
});

describe("formatCount", () => {
  it("abbreviates thousands and millions", () => {
    expect(formatCount(950)).toBe("950");
    expect(formatCount(12_345)).toBe("12.3k");
    expect(formatCount(1_500)).toBe("1.5k");
    expect(formatCount(2_000)).toBe("2k");
    expect(formatCount(4_560_000)).toBe("4.56M");
    expect(formatCount(123_400_000)).toBe("123.4M");
  });
});

describe("formatCost", () => {
  it("never shows an unknown cost as zero", () => {
    expect(formatCost(null)).toBe(DASH);
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(0.0042)).toBe("$0.0042");
    expect(formatCost(3.456)).toBe("$3.46");
    expect(formatCost(1234.4)).toBe("$1,234");
  });
});

describe("formatDuration", () => {
  it("picks two units", () => {
    expect(formatDuration(42)).toBe("42s");
    expect(formatDuration(185)).toBe("3m 05s");
    expect(formatDuration(8040)).toBe("2h 14m");
    expect(formatDuration(3 * 86_400 + 4 * 3600)).toBe("3d 4h");
    expect(formatDuration(null)).toBe(DASH);
  });
});

describe("relative times", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  it("formats recent times relative to now", () => {
    expect(formatRelative("2026-03-01T11:59:50Z", now)).toBe("just now");
    expect(formatRelative("2026-03-01T11:55:00Z", now)).toBe("5 min ago");
    expect(formatRelative("2026-03-01T09:00:00Z", now)).toBe("3 h ago");
    expect(formatRelative("2026-02-27T12:00:00Z", now)).toBe("2 d ago");
    expect(formatRelative("2025-01-01T00:00:00Z", now)).toBe("2025-01-01");
    expect(formatRelative(null, now)).toBe(DASH);
  });
  it("measures elapsed time until now or the end", () => {
    expect(elapsedSeconds("2026-03-01T11:59:00Z", null, now)).toBe(60);
    expect(elapsedSeconds("2026-03-01T11:00:00Z", "2026-03-01T11:30:00Z", now)).toBe(1800);
    expect(elapsedSeconds(null, null, now)).toBeNull();
  });
});

describe("misc", () => {
  it("joins backend and model", () => {
    expect(formatRole("sim", "sim-target")).toBe("sim · sim-target");
    expect(formatRole("openai", "")).toBe("openai");
  });
  it("clamps progress and reports unknown totals", () => {
    expect(progressPercent(5, 10)).toBe(50);
    expect(progressPercent(12, 10)).toBe(100);
    expect(progressPercent(0, 0)).toBeNull();
  });
});

describe("formatTimestamp", () => {
  it("reads like toLocaleString in en-GB, 24-hour, for any time of day and year", () => {
    for (const iso of ["2026-12-02T00:05:09Z", "2026-01-31T13:45:00.250Z", "1999-07-04T23:59:59Z"])
      expect(formatTimestamp(iso)).toBe(new Date(iso).toLocaleString("en-GB", { hour12: false }));
  });
  it("shows a dash for no time or an unreadable one", () => {
    expect(formatTimestamp(null)).toBe(DASH);
    expect(formatTimestamp("not a date")).toBe(DASH);
  });
});

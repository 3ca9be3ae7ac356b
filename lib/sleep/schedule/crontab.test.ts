import { describe, expect, it } from "vitest";
import {
  CRON_BEGIN,
  CRON_END,
  checkCronText,
  cronLine,
  projectMarker,
  shQuote,
  splitManaged,
  withEntry,
  withoutEntry,
  type CronEntry,
} from "./crontab";

const entry = (over: Partial<CronEntry> = {}): CronEntry => ({
  project: "/home/ana/proj",
  backend: "mock",
  hour: 3,
  minute: 17,
  autoAdopt: false,
  repo: "/opt/skillopt",
  node: "/usr/bin/node",
  ...over,
});

describe("cronLine", () => {
  it("runs sleep run for the project at minute hour, logs to the project's cron.log and ends with the project marker", () => {
    const line = cronLine(entry());
    expect(line).toBe(
      "17 3 * * *  mkdir -p /home/ana/proj/.skillopt-sleep; cd /opt/skillopt && /usr/bin/node --import tsx scripts/cli.ts sleep run --project /home/ana/proj --scope invoked --backend mock >> /home/ana/proj/.skillopt-sleep/cron.log 2>&1  " +
        projectMarker("/home/ana/proj"),
    );
    expect(projectMarker("/home/ana/proj")).toMatch(/^# project-sha256=[0-9a-f]{64}$/);
  });

  it("adds --auto-adopt only when asked and quotes paths with spaces or quotes", () => {
    const line = cronLine(entry({ project: "/home/ana/my proj's", autoAdopt: true, hour: 0, minute: 5 }));
    expect(line.startsWith("5 0 * * *  ")).toBe(true);
    expect(line).toContain(`--project '/home/ana/my proj'\\''s' --scope invoked --backend mock --auto-adopt >>`);
  });

  it("refuses control characters, '%', relative paths and times out of range, naming the field", () => {
    expect(() => cronLine(entry({ project: "/tmp/a\nb" }))).toThrow(/project cannot contain control characters/);
    expect(() => cronLine(entry({ backend: "mock\u001b[31m" }))).toThrow(/backend cannot contain control characters/);
    expect(() => cronLine(entry({ repo: "/opt/50%" }))).toThrow(/repository cannot contain '%'/);
    expect(() => cronLine(entry({ project: "proj" }))).toThrow(/project must be an absolute path/);
    expect(() => cronLine(entry({ hour: 24 }))).toThrow(/--hour must be a whole number from 0 through 23/);
    expect(() => cronLine(entry({ minute: -1 }))).toThrow(/--minute/);
    expect(() => checkCronText("backend", "")).toThrow(/backend must not be empty/);
  });

  it("shQuote leaves plain words alone", () => {
    expect(shQuote("/a/b-c_d.e")).toBe("/a/b-c_d.e");
    expect(shQuote("a b")).toBe("'a b'");
    expect(shQuote("$(rm -rf /)")).toBe("'$(rm -rf /)'");
  });
});

describe("the managed block", () => {
  const user = "# my jobs\nMAILTO=ana\n0 * * * * /usr/local/bin/backup\n";
  const a = cronLine(entry());
  const b = cronLine(entry({ project: "/home/ana/other", hour: 4 }));

  it("appends the block after the user's lines and keeps them byte for byte", () => {
    const out = withEntry(user, "/home/ana/proj", a);
    expect(out).toBe(`${user}${CRON_BEGIN}\n${a}\n${CRON_END}\n`);
    expect(splitManaged(out)).toEqual({ before: user.trimEnd().split("\n"), managed: [a], after: [] });
  });

  it("is idempotent and replaces only the same project's line", () => {
    const once = withEntry(user, "/home/ana/proj", a);
    expect(withEntry(once, "/home/ana/proj", a)).toBe(once);
    const both = withEntry(once, "/home/ana/other", b);
    const moved = cronLine(entry({ hour: 5 }));
    const after = withEntry(both, "/home/ana/proj", moved);
    expect(splitManaged(after).managed).toEqual([b, moved]);
    expect(after.startsWith(user)).toBe(true);
  });

  it("keeps lines after the block where they were", () => {
    const text = `${user}${CRON_BEGIN}\n${a}\n${CRON_END}\n30 2 * * * /bin/true\n`;
    expect(withEntry(text, "/home/ana/other", b)).toBe(
      `${user}${CRON_BEGIN}\n${a}\n${b}\n${CRON_END}\n30 2 * * * /bin/true\n`,
    );
  });

  it("unschedule removes one project's line, the block when it empties, or every line with null", () => {
    const both = withEntry(withEntry(user, "/home/ana/proj", a), "/home/ana/other", b);
    expect(withoutEntry(both, "/home/ana/proj")).toEqual({
      text: `${user}${CRON_BEGIN}\n${b}\n${CRON_END}\n`,
      removed: 1,
    });
    expect(withoutEntry(withoutEntry(both, "/home/ana/proj").text, "/home/ana/other")).toEqual({
      text: user,
      removed: 1,
    });
    expect(withoutEntry(both, null)).toEqual({ text: user, removed: 2 });
    expect(withoutEntry(user, "/home/ana/proj")).toEqual({ text: user, removed: 0 });
    expect(withoutEntry("", null)).toEqual({ text: "", removed: 0 });
  });

  it("refuses a begin marker without its end marker instead of eating the lines after it", () => {
    expect(() => withEntry(`${user}${CRON_BEGIN}\n0 1 * * * keep-me\n`, "/home/ana/proj", a)).toThrow(
      /has no matching/,
    );
  });
});

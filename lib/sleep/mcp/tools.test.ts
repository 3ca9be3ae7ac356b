import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SLEEP_TOOLS, sleepArgs } from "./tools";

describe("sleep MCP tool arguments", () => {
  it("map onto the CLI's flags with --json, the project defaulting to the server's folder", () => {
    expect(sleepArgs("sleep_status", {}, "/p")).toEqual(["status", "--project", "/p", "--json"]);
    expect(
      sleepArgs(
        "sleep_run",
        { project: "/q", backend: "claude", lookback_hours: 0, max_tasks: 5, auto_adopt: true, tasks_file: "/t.json" },
        "/p",
      ),
    ).toEqual([
      "run",
      "--project",
      "/q",
      "--backend",
      "claude",
      "--lookback-hours",
      "0",
      "--max-tasks",
      "5",
      "--auto-adopt",
      "--tasks-file",
      "/t.json",
      "--json",
    ]);
    expect(sleepArgs("sleep_adopt", { skills: ["a", "b"], legacy: false }, "/p")).toEqual([
      "adopt",
      "--project",
      "/p",
      "--skill",
      "a",
      "--skill",
      "b",
      "--json",
    ]);
    expect(sleepArgs("sleep_unschedule", { all: true }, "/p")).toEqual([
      "unschedule",
      "--project",
      "/p",
      "--all",
      "--json",
    ]);
    expect(sleepArgs("sleep_dry_run", { claude_home: "/h", target_skill_path: "/s.md" }, "/p")).toEqual([
      "dry-run",
      "--project",
      "/p",
      "--claude-home",
      "/h",
      "--target-skill-path",
      "/s.md",
      "--json",
    ]);
  });

  it("every input schema refuses what the CLI would refuse", () => {
    const schedule = z.object(SLEEP_TOOLS.sleep_schedule.input);
    expect(schedule.safeParse({ hour: 3, minute: 59 }).success).toBe(true);
    expect(schedule.safeParse({ hour: 24 }).success).toBe(false);
    expect(schedule.safeParse({ minute: 1.5 }).success).toBe(false);
    expect(z.object(SLEEP_TOOLS.sleep_dry_run.input).safeParse({ scope: "some" }).success).toBe(false);
    expect(z.object(SLEEP_TOOLS.sleep_harvest.input).safeParse({ source: "cursor", lookback_hours: -1 }).success).toBe(
      false,
    );
  });
});

import { describe, expect, it } from "vitest";
import { detectFeedback, isAgentSession, isHeadlessSession, isMetaPrompt, makeTextFilters } from "./filters";

const filters = makeTextFilters({
  negativeFeedback: [" Schon wieder kaputt "],
  positiveFeedback: ["Danke"],
  agentMarkers: [],
  replayMarkers: [],
});

describe("meta prompts", () => {
  it.each([
    ["", true],
    ["<local-command-stdout>ok</local-command-stdout>", true],
    ["/clear", true],
    ["/review the last three commits", false],
    ["[Pasted text #1 +12 lines]", true],
    ["Caveat: the messages below were generated locally", true],
    ["[Request interrupted by user]", true],
    ["<command-message>init is analyzing…</command-message> <command-name>/init</command-name> extra", true],
    ["# /deploy — ship the current branch", true],
    ["Fix the flaky test in <src/db.ts>", false],
  ])("%j → %s", (text, meta) => expect(isMetaPrompt(text)).toBe(meta));
});

describe("feedback", () => {
  it("matches phrases case-insensitively, including user-added ones in any language", () => {
    expect(detectFeedback("Still BROKEN after the change", filters)).toEqual(["neg:still broken", "neg:broken"]);
    expect(detectFeedback("Danke, LGTM", filters)).toEqual(["pos:lgtm", "pos:danke"]);
    expect(detectFeedback("schon wieder kaputt", filters)).toEqual(["neg:schon wieder kaputt"]);
    expect(detectFeedback("Please add a test", filters)).toEqual([]);
  });
});

describe("program-written sessions", () => {
  const session = (prompts: string[], startedAt = "", endedAt = "") => ({ userPrompts: prompts, startedAt, endedAt });

  it("a single prompt with an engine marker, or short and answered within 3 s, is headless", () => {
    expect(isHeadlessSession(session(["You are a strict grader. Rate it."]), filters)).toBe(true);
    expect(isHeadlessSession(session(["Rate it", "again"]), filters)).toBe(false);
    expect(isHeadlessSession(session(["hi"], "2026-01-01T00:00:00Z", "2026-01-01T00:00:02Z"), filters)).toBe(true);
    expect(isHeadlessSession(session(["hi"], "2026-01-01T00:00:00Z", "2026-01-01T00:00:04Z"), filters)).toBe(false);
    expect(isHeadlessSession(session(["x".repeat(200)], "2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z"), filters)).toBe(
      false,
    );
    expect(isHeadlessSession(session(["hi"]), filters)).toBe(false);
  });

  it("a first prompt with another tool's sub-agent marker is a sub-agent session", () => {
    expect(isAgentSession(["Hello memory agent, new observation", "more"], filters)).toBe(true);
    expect(isAgentSession(["Please say Hello memory agent", "more"], filters)).toBe(true);
    expect(isAgentSession(["normal", "Hello memory agent"], filters)).toBe(false);
  });
});

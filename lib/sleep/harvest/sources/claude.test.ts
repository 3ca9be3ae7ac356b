import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harvestSessions } from "../index";
import { fixedClock, harvestOptions, installFixture, makeTempHome, setMtime } from "../testing";

let home: string;
let cleanup: () => void;
const projects = () => path.join(home, ".claude", "projects");

/** Each transcript's modification time is its last record's time, as Claude Code leaves it. */
const MTIMES: Record<string, string> = {
  "-work-alpha/s-alpha-1.jsonl": "2026-03-01T09:05:00Z",
  "-work-alpha/s-alpha-headless.jsonl": "2026-03-01T10:00:40Z",
  "-work-alpha/s-alpha-quick.jsonl": "2026-03-01T10:10:02Z",
  "-work-alpha/s-alpha-observer.jsonl": "2026-03-01T11:01:30Z",
  "-work-alpha/s-alpha-critic.jsonl": "2026-03-01T11:31:30Z",
  "-work-alpha/s-alpha-metaonly.jsonl": "2026-03-01T12:00:01Z",
  "-work-alpha/agent-5f2c.jsonl": "2026-03-01T09:30:30Z",
  "-work-alpha/s-alpha-1/subagents/agent-a1b2.jsonl": "2026-03-01T09:31:30Z",
  "-work-beta/s-beta-1.jsonl": "2026-03-02T08:03:00Z",
  "-work-alpha-packages-api/s-api-1.jsonl": "2026-03-03T08:05:00Z",
  "-work/s-root-1.jsonl": "2026-03-04T08:05:00Z",
};

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  installFixture("claude", path.join(home, ".claude"));
  for (const [rel, iso] of Object.entries(MTIMES)) setMtime(path.join(projects(), rel), iso);
});
afterEach(() => cleanup());

const ids = (r: { digests: Array<{ sessionId: string }> }) => r.digests.map((d) => d.sessionId);

describe("claude harvest", () => {
  it("keeps the user's sessions newest first and drops sub-agent, headless, observer and meta-only ones", async () => {
    const r = await harvestSessions(harvestOptions(home));
    expect(ids(r)).toEqual(["s-root-1", "s-api-1", "s-beta-1", "s-alpha-critic", "s-alpha-1"]);
    expect(r.source).toBe("claude");
    expect(r.skipped).toMatchObject({
      corruptLines: 2, // a half-written record and a line of plain text, both in s-alpha-1
      subagent: 3, // agent-5f2c.jsonl, subagents/agent-a1b2.jsonl, the Claude-Mem observer
      headless: 2, // our benchmark exec prompt; a 1.5 s one-line "Score this answer"
      empty: 1, // only "/model opus"
      meta: 5, // caveat notice, /clear, an expanded /review, a pasted-text stub, /model opus
    });
    const text = JSON.stringify(r.digests);
    for (const never of ["SUB-AGENT", "SIDECHAIN", "PRIVATE REASONING", "TOOL OUTPUT", "You are a Claude-Mem"]) {
      expect(text).not.toContain(never);
    }
  });

  it("digests a session: prompts, finals, tools, skills, edited files, follow-up feedback, redacted secrets", async () => {
    const r = await harvestSessions(harvestOptions(home));
    const d = r.digests.find((x) => x.sessionId === "s-alpha-1")!;
    expect(d).toMatchObject({
      project: "/work/alpha",
      gitBranch: "feature/dry-run",
      startedAt: "2026-03-01T09:00:00.000Z",
      endedAt: "2026-03-01T09:05:00.000Z",
      nUserTurns: 3,
      nAssistantTurns: 4,
      source: "claude",
      rawPath: path.join(projects(), "-work-alpha", "s-alpha-1.jsonl"),
    });
    expect(d.userPrompts).toEqual([
      "Add a --dry-run flag to deploy.sh that prints the steps instead of running them",
      "That's wrong: the dry run must also skip the upload. The staging key is [REDACTED_OPENAI_KEY] if you need it.",
      "thanks, works now",
    ]);
    expect(d.assistantFinals).toEqual([
      "I'll read the script first.",
      "Added --dry-run: it echoes each step.",
      "Fixed: --dry-run now skips the upload too.",
    ]);
    expect(d.toolsUsed).toEqual(["Read", "Skill", "Edit"]);
    expect(d.skillsUsed).toEqual(["deploy-helper"]);
    expect(d.filesTouched).toEqual(["/work/alpha/deploy.sh", "/work/alpha/README.md"]);
    expect(d.feedbackSignals).toEqual(
      expect.arrayContaining(["neg:that's wrong", "neg:wrong", "pos:thanks", "pos:works now"]),
    );
    expect(JSON.stringify(r)).not.toContain("Zz9Yy8Xx7Ww6Vv5Uu4Tt3");
  });

  it("reads feedback from follow-ups only: an opening request that mentions breakage is not a verdict", async () => {
    const r = await harvestSessions(harvestOptions(home));
    const beta = r.digests.find((x) => x.sessionId === "s-beta-1")!;
    expect(beta.feedbackSignals).toEqual(["neg:still broken", "neg:broken"]);
    const api = r.digests.find((x) => x.sessionId === "s-api-1")!;
    expect(api.feedbackSignals).toEqual([]);
  });

  it("drops sessions opened by a user-listed agent marker", async () => {
    const r = await harvestSessions(harvestOptions(home, { agentMarkers: ["[ACME-CRITIC]"] }));
    expect(ids(r)).not.toContain("s-alpha-critic");
    expect(r.skipped.subagent).toBe(4);
  });

  it("treats a single prompt containing one of the cycle's own template openings as headless", async () => {
    const r = await harvestSessions(harvestOptions(home, { replayMarkers: ["List which of my projects"] }));
    expect(ids(r)).not.toContain("s-root-1");
    expect(r.skipped.headless).toBe(3);
  });

  it("scope invoked keeps the project, its sub-folders and its ancestors; list keeps exactly the listed folders", async () => {
    const invoked = await harvestSessions(harvestOptions(home, { scope: { kind: "invoked", project: "/work/alpha" } }));
    expect(ids(invoked)).toEqual(["s-root-1", "s-api-1", "s-alpha-critic", "s-alpha-1"]);
    expect(invoked.skipped.outOfScope).toBe(1);
    const list = await harvestSessions(
      harvestOptions(home, { scope: { kind: "list", projects: ["/work/beta/", "/work/alpha/packages/api"] } }),
    );
    expect(ids(list)).toEqual(["s-api-1", "s-beta-1"]);
  });

  it("since: a global bound compares each session's end; older files are not even opened", async () => {
    // s-alpha-1 was touched later (copied, say) but its records end on March 1: the content decides.
    setMtime(path.join(projects(), "-work-alpha", "s-alpha-1.jsonl"), "2026-03-05T00:00:00Z");
    const r = await harvestSessions(harvestOptions(home, { since: { kind: "after", iso: "2026-03-02T00:00:00Z" } }));
    expect(ids(r)).toEqual(["s-root-1", "s-api-1", "s-beta-1"]);
    // alpha-1 by its content; the five other March 1 sessions by their modification time (the two
    // sub-agent files count as sub-agents, recognised by name before any time check)
    expect(r.skipped.beforeSince).toBe(1 + 5);
    expect(r.skipped).toMatchObject({ subagent: 2, headless: 0, corruptLines: 2 });
  });

  it("since: per-project checkpoints apply to related folders; others fall back to the lookback window", async () => {
    const checkpoints = { "/work/alpha": "2026-03-03T12:00:00Z" };
    const noWindow = await harvestSessions(
      harvestOptions(home, { since: { kind: "checkpoints", checkpoints, lookbackHours: 0 } }),
    );
    // api (inside alpha) ended before alpha's checkpoint; root (/work, above alpha) after it; beta has no checkpoint.
    expect(ids(noWindow)).toEqual(["s-root-1", "s-beta-1"]);
    const window = await harvestSessions(
      harvestOptions(home, {
        since: { kind: "checkpoints", checkpoints, lookbackHours: 24 },
        clock: fixedClock("2026-03-04T12:00:00Z"),
      }),
    );
    expect(ids(window)).toEqual(["s-root-1"]);
  });

  it("stops at the session cap, newest first, and says so", async () => {
    const r = await harvestSessions(harvestOptions(home, { limit: 2 }));
    expect(ids(r)).toEqual(["s-root-1", "s-api-1"]);
    expect(r.notes.join("\n")).toContain("session cap of 2 reached");
  });

  it("a missing Claude home is a note, not an error", async () => {
    const r = await harvestSessions(harvestOptions(home, { claudeHome: path.join(home, "nowhere") }));
    expect(r.digests).toEqual([]);
    expect(r.notes.join("\n")).toMatch(/no Claude Code transcripts: .*nowhere.* is not a folder/);
  });
});

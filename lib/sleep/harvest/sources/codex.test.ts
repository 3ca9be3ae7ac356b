import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harvestSessions } from "../index";
import { harvestOptions, installFixture, makeTempHome, setMtime } from "../testing";
import { stripCodexContext } from "./codex";

let home: string;
let cleanup: () => void;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  installFixture("codex", path.join(home, ".codex"));
  const dir = path.join(home, ".codex", "archived_sessions");
  setMtime(path.join(dir, "rollout-2026-03-05-cx1.jsonl"), "2026-03-05T10:03:00Z");
  setMtime(path.join(dir, "rollout-2026-03-06-cx2.jsonl"), "2026-03-06T09:01:00Z");
  setMtime(path.join(dir, "rollout-2026-03-07-cx3.jsonl"), "2026-03-07T09:00:20Z");
  setMtime(path.join(dir, "rollout-2026-03-08-cx4.jsonl"), "2026-03-08T09:00:40Z");
});
afterEach(() => cleanup());

const codex = (over = {}) => harvestSessions(harvestOptions(home, { source: "codex", ...over }));
const byId = (r: Awaited<ReturnType<typeof codex>>, id: string) =>
  r.digests.find((d) => d.sessionId === `rollout-${id}`)!;

describe("codex harvest", () => {
  it("reads each turn once (events when the file has them), without context, reasoning or tool I/O", async () => {
    const r = await codex();
    expect(r.digests.map((d) => d.sessionId)).toEqual([
      "rollout-2026-03-08-cx4",
      "rollout-2026-03-07-cx3",
      "rollout-2026-03-06-cx2",
      "rollout-2026-03-05-cx1",
    ]);
    const d = byId(r, "2026-03-05-cx1");
    expect(d).toMatchObject({
      project: "/work/gamma",
      gitBranch: "fix/parser",
      startedAt: "2026-03-05T10:00:00.000Z",
      endedAt: "2026-03-05T10:03:00.000Z",
      nUserTurns: 3,
      nAssistantTurns: 2,
      source: "codex",
    });
    expect(d.userPrompts).toEqual([
      "Fix the parser so trailing commas in arrays are accepted",
      "Doesn't work: [1, 2,] still fails. Use GITHUB_TOKEN=[REDACTED_GITHUB_TOKEN] to fetch the spec",
      "perfect, thanks",
    ]);
    expect(d.assistantFinals).toEqual(["Trailing commas are accepted now.", "Handled the nested case as well."]);
    expect(d.toolsUsed).toEqual(["shell", "exec_command", "apply_patch", "web_search"]);
    expect(d.feedbackSignals).toEqual(
      expect.arrayContaining(["neg:doesn't work", "neg:still fails", "pos:perfect", "pos:thanks"]),
    );
    expect(r.skipped.corruptLines).toBe(1);
    const text = JSON.stringify(r);
    for (const never of ["NEVER KEPT", "PRIVATE REASONING", "SECRET ARGUMENT", "ghp_abcdef"])
      expect(text).not.toContain(never);
  });

  it("falls back to the model messages when a file has no turn events, dropping the environment block", async () => {
    const d = byId(await codex(), "2026-03-06-cx2");
    expect(d.userPrompts).toEqual(["Rename the config key retries to max_retries everywhere"]);
    expect(d.assistantFinals).toEqual(["Renamed in 4 files."]);
    expect(d.toolsUsed).toEqual(["apply_patch", "mcp_tool_call"]);
  });

  it("keeps what the user typed after an AGENTS.md preamble", async () => {
    expect(byId(await codex(), "2026-03-08-cx4").userPrompts).toEqual([
      "explain what /tmp/build.log says about the failure",
    ]);
    expect(stripCodexContext("# AGENTS.md instructions\n<INSTRUCTIONS>x</INSTRUCTIONS>")).toBe("");
    expect(stripCodexContext("<codex_internal_context>x</codex_internal_context>")).toBe("");
  });

  it("drops the cycle's own judge call when its template opening is passed as a replay marker", async () => {
    const r = await codex({ replayMarkers: ["Rate from 0 to 1 how well the response meets the rubric"] });
    expect(r.digests.map((d) => d.sessionId)).not.toContain("rollout-2026-03-07-cx3");
    expect(r.skipped.headless).toBe(1);
  });

  it("scopes by the session's working folder", async () => {
    const r = await codex({ scope: { kind: "invoked", project: "/work/gamma/src" } });
    expect(r.digests.map((d) => d.sessionId)).toEqual(["rollout-2026-03-07-cx3", "rollout-2026-03-05-cx1"]);
    expect(r.skipped.outOfScope).toBe(2);
  });
});

import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harvestSessions } from "../index";
import { pathRules } from "../scope";
import { harvestOptions, installFixture, makeTempHome, setMtime } from "../testing";
import { cursorSlug } from "./cursor";

let home: string;
let cleanup: () => void;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  installFixture("cursor", path.join(home, ".cursor"));
  const p = path.join(home, ".cursor", "projects");
  setMtime(path.join(p, "work-eta", "agent-transcripts", "cs1", "cs1.jsonl"), "2026-03-12T10:00:00Z");
  setMtime(path.join(p, "work-eta", "agent-transcripts", "cs2", "cs2.jsonl"), "2026-03-12T11:00:00Z");
  setMtime(path.join(p, "work-theta-api", "agent-transcripts", "cs3", "cs3.jsonl"), "2026-03-13T10:00:00Z");
});
afterEach(() => cleanup());

const cursor = (over = {}) => harvestSessions(harvestOptions(home, { source: "cursor", ...over }));

describe("cursor harvest", () => {
  it("unwraps the user's query, turns a failed turn into negative feedback and skips our own replays", async () => {
    const r = await cursor();
    expect(r.digests.map((d) => d.sessionId)).toEqual(["cs3", "cs1"]);
    expect(r.skipped).toMatchObject({ ownReplays: 1, corruptLines: 1 });
    const cs1 = r.digests[1]!;
    expect(cs1).toMatchObject({
      project: "/work/eta",
      startedAt: "",
      endedAt: "2026-03-12T10:00:00.000Z",
      userPrompts: ["Add retry with backoff to the HTTP client", "it still fails on 503"],
      assistantFinals: ["Added exponential backoff.", "503 is retried now too."],
      toolsUsed: ["edit_file", "run_terminal_cmd"],
      nUserTurns: 2,
      nAssistantTurns: 2,
      source: "cursor",
    });
    expect(cs1.feedbackSignals).toEqual(["neg:cursor_turn_error", "neg:still fails"]);
    const text = JSON.stringify(r);
    for (const never of ["REPLAYED TASK", "NEVER KEPT", "user_info"]) expect(text).not.toContain(never);
  });

  it("a workspace whose path Cursor did not record has an unknown project under scope all", async () => {
    const r = await cursor();
    expect(r.digests[0]).toMatchObject({ sessionId: "cs3", project: "" });
  });

  it("scope invoked finds the workspace by its recorded path or by the slug of a containing folder", async () => {
    const eta = await cursor({ scope: { kind: "invoked", project: "/work/eta/lib" } });
    expect(eta.digests.map((d) => [d.sessionId, d.project])).toEqual([["cs1", "/work/eta"]]);
    const theta = await cursor({ scope: { kind: "invoked", project: "/work/theta/api/src" } });
    expect(theta.digests.map((d) => [d.sessionId, d.project])).toEqual([["cs3", "/work/theta/api"]]);
    const list = await cursor({ scope: { kind: "list", projects: ["/work/eta", "/work/theta/api"] } });
    expect(list.digests.map((d) => d.sessionId)).toEqual(["cs3", "cs1"]);
    const none = await cursor({ scope: { kind: "invoked", project: "/work/iota" } });
    expect(none.digests).toEqual([]);
  });

  it("uses the transcript's modification time for since", async () => {
    const r = await cursor({ since: { kind: "after", iso: "2026-03-12T12:00:00Z" } });
    expect(r.digests.map((d) => d.sessionId)).toEqual(["cs3"]);
    expect(r.skipped).toMatchObject({ beforeSince: 2, ownReplays: 0 });
  });

  it("slugs a path the way Cursor names its project folders", () => {
    expect(cursorSlug("/home/me/my_app.v2", pathRules("linux"))).toBe("home-me-my-app-v2");
    expect(cursorSlug("C:\\Users\\me\\app", pathRules("win32"))).toBe("C-Users-me-app");
  });
});

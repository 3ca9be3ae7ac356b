import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harvestSessions } from "../index";
import { harvestOptions, installFixture, makeTempHome, setMtime } from "../testing";
import { activeBranch } from "./pi-tree";

let home: string;
let cleanup: () => void;

beforeEach(() => {
  ({ home, cleanup } = makeTempHome());
  installFixture("pi", path.join(home, ".pi"));
  const s = path.join(home, ".pi", "agent", "sessions");
  const times: Record<string, string> = {
    "--work-kappa--/p1.jsonl": "2026-03-14T09:09:00Z",
    "--work-kappa--/p2.jsonl": "2026-03-15T09:02:00Z",
    "--work-lambda--/p3.jsonl": "2026-03-16T09:03:00Z",
    "--work-lambda--/p4.jsonl": "2026-03-16T10:03:00Z",
    "--work-lambda--/p5.jsonl": "2026-03-16T11:01:00Z",
    "--work-lambda--/p6.jsonl": "2026-03-16T12:00:20Z",
  };
  for (const [rel, iso] of Object.entries(times)) setMtime(path.join(s, rel), iso);
});
afterEach(() => cleanup());

const pi = (over = {}) => harvestSessions(harvestOptions(home, { source: "pi", ...over }));

describe("pi harvest", () => {
  it("reads only the branch that ends at the last entry of a tree session", async () => {
    const r = await pi();
    const p1 = r.digests.find((d) => d.sessionId === "p1")!;
    expect(p1).toMatchObject({
      project: "/work/kappa",
      startedAt: "2026-03-14T09:00:00.000Z",
      endedAt: "2026-03-14T09:09:00.000Z",
      userPrompts: [
        "Make the CLI print --help when no args are given",
        "Actually, keep it plain but exit with code 2. That's wrong as it is.",
      ],
      assistantFinals: ["Let me look at main.ts.", "Done: no args prints help.", "Exit code is 2 now."],
      toolsUsed: ["bash", "edit"],
      nUserTurns: 2,
      nAssistantTurns: 3,
      source: "pi",
    });
    // A failed tool call is not the user's verdict; the follow-up is.
    expect(p1.feedbackSignals).toEqual(["neg:that's wrong", "neg:wrong"]);
    const text = JSON.stringify(r);
    for (const never of ["ABANDONED", "PRIVATE REASONING", "NEVER KEPT"]) expect(text).not.toContain(never);
  });

  it("skips a bad line of a linear session but rejects a tree that cannot be trusted", async () => {
    const r = await pi();
    expect(r.digests.map((d) => d.sessionId)).toEqual(["p2", "p1"]);
    expect(r.digests[0]!.userPrompts).toEqual(["Bump the version to 1.4.0"]);
    // p3: a tree with an unreadable line; p4: a parent written after its child; p5: an unknown version
    expect(r.skipped).toMatchObject({ corruptLines: 2, corruptSessions: 3, headless: 1 });
    expect(r.notes.join("\n")).toMatch(/p3\.jsonl skipped: a tree session with unreadable lines/);
    expect(r.notes.join("\n")).toMatch(/p4\.jsonl skipped: entry e2 names a parent not written before it/);
    expect(r.notes.join("\n")).toMatch(/p5\.jsonl skipped: unknown session version 7/);
    const text = JSON.stringify(r.digests);
    for (const never of ["CORRUPT TREE", "FORWARD PARENT", "FUTURE VERSION", "strict grader"])
      expect(text).not.toContain(never);
  });

  it("scopes by the header's working folder", async () => {
    const r = await pi({ scope: { kind: "invoked", project: "/work/lambda" } });
    expect(r.digests).toEqual([]);
    expect(r.skipped.outOfScope).toBe(2);
  });
});

describe("activeBranch", () => {
  const header = { type: "session", version: 3, id: "s" };
  const e = (id: string, parentId: string | null) => ({ type: "message", id, parentId });

  it("walks back from the last entry; side branches are left out", () => {
    const r = activeBranch([header, e("a", null), e("b", "a"), e("c", "b"), e("d", "a")]);
    expect(r.ok && r.entries.map((x) => x.id)).toEqual(["a", "d"]);
  });

  it("accepts several roots (the user went back to the start)", () => {
    const r = activeBranch([header, e("a", null), e("b", "a"), e("c", null), e("d", "c")]);
    expect(r.ok && r.entries.map((x) => x.id)).toEqual(["c", "d"]);
  });

  it("rejects duplicate ids, missing parentId, a second header and a missing header", () => {
    expect(activeBranch([header, e("a", null), e("a", "a")]).ok).toBe(false);
    expect(activeBranch([header, { type: "message", id: "a" }]).ok).toBe(false);
    expect(activeBranch([header, e("a", null), header]).ok).toBe(false);
    expect(activeBranch([e("a", null)]).ok).toBe(false);
  });

  it("keeps a version 1 session as written", () => {
    const r = activeBranch([{ type: "session", id: "s" }, { type: "message" }, { type: "message" }]);
    expect(r.ok && r.entries.length).toBe(2);
  });
});

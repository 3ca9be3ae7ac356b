import Database from "better-sqlite3";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harvestSessions } from "../index";
import { buildSqlite, harvestOptions, makeTempHome, treeFingerprint } from "../testing";

let home: string;
let tmp: string;
let cleanups: Array<() => void>;
const defaultDb = () => path.join(home, ".local", "share", "opencode", "opencode.db");

beforeEach(() => {
  const h = makeTempHome();
  const t = makeTempHome();
  home = h.home;
  tmp = t.home;
  cleanups = [h.cleanup, t.cleanup];
});
afterEach(() => {
  for (const c of cleanups) c();
});

const opencode = (over = {}) => harvestSessions(harvestOptions(home, { source: "opencode", tempDir: tmp, ...over }));

describe("opencode harvest", () => {
  it("reads top-level sessions: visible text and tool names, nothing synthetic, no reasoning or tool I/O", async () => {
    buildSqlite(defaultDb(), "opencode/opencode.sql", "wal");
    const before = treeFingerprint(home);
    const r = await opencode();
    expect(r.digests.map((d) => d.sessionId)).toEqual(["ses_5", "ses_1", "ses_6"]);
    expect(r.skipped).toMatchObject({ subagent: 1, ownReplays: 1, noProject: 1, corruptLines: 1 });
    const d = r.digests[1]!;
    expect(d).toMatchObject({
      project: "/work/xi",
      gitBranch: "feat/pages",
      startedAt: "2026-03-19T09:00:00.000Z",
      endedAt: "2026-03-19T09:10:00.000Z",
      userPrompts: [
        "Add pagination to the /users endpoint",
        "Still wrong: page 2 repeats page 1. DB is postgres://app:[REDACTED_DB_PASS]@db/users",
        "lgtm",
      ],
      assistantFinals: ["Added ?page and ?limit.", "The offset was off by one; fixed."],
      toolsUsed: ["read", "edit"],
      nUserTurns: 3,
      nAssistantTurns: 2,
      source: "opencode",
      rawPath: `${defaultDb()}#ses_1`,
    });
    expect(d.feedbackSignals).toEqual(
      expect.arrayContaining(["neg:still wrong", "neg:wrong", "pos:lgtm", "neg:opencode_message_error"]),
    );
    const text = JSON.stringify(r);
    for (const never of [
      "SYNTHETIC",
      "PRIVATE REASONING",
      "NEVER KEPT",
      "CHILD SESSION",
      "OWN REPLAY",
      "RELATIVE DIR",
      "pa55word",
    ]) {
      expect(text).not.toContain(never);
    }
    expect(treeFingerprint(home)).toEqual(before);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("applies scope and since", async () => {
    buildSqlite(defaultDb(), "opencode/opencode.sql", "delete");
    const r = await opencode({
      scope: { kind: "invoked", project: "/work/xi" },
      since: { kind: "after", iso: "2026-03-01T00:00:00Z" },
    });
    expect(r.digests.map((d) => d.sessionId)).toEqual(["ses_1"]);
    expect(r.skipped).toMatchObject({ outOfScope: 1, beforeSince: 1 });
  });

  it("finds the database through OPENCODE_DB (relative to the data folder) and XDG_DATA_HOME", async () => {
    const xdg = path.join(home, "data");
    buildSqlite(path.join(xdg, "opencode", "custom.db"), "opencode/opencode.sql", "delete");
    const r = await opencode({ env: { XDG_DATA_HOME: xdg, OPENCODE_DB: "custom.db" } });
    expect(r.digests).toHaveLength(3);
    const inMemory = await opencode({ env: { OPENCODE_DB: ":memory:" } });
    expect(inMemory.digests).toEqual([]);
    expect(inMemory.notes.join("\n")).toContain("in memory");
  });

  it("reads a database a live OpenCode holds exclusively, through a snapshot", async () => {
    buildSqlite(defaultDb(), "opencode/opencode.sql", "wal");
    const writer = new Database(defaultDb());
    try {
      writer.pragma("locking_mode = EXCLUSIVE");
      writer.exec("BEGIN IMMEDIATE; DELETE FROM part;");
      const before = treeFingerprint(home);
      const r = await opencode();
      expect(r.digests.map((d) => d.sessionId)).toEqual(["ses_5", "ses_1", "ses_6"]);
      expect(treeFingerprint(home)).toEqual(before);
    } finally {
      writer.close();
    }
  });

  it("names the missing columns of an unknown schema instead of guessing", async () => {
    const file = path.join(home, "odd.db");
    const db = new Database(file);
    db.exec("CREATE TABLE session (id TEXT, directory TEXT); CREATE TABLE message (id TEXT);");
    db.close();
    const r = await opencode({ opencodeDb: file });
    expect(r.digests).toEqual([]);
    expect(r.notes.join("\n")).toMatch(/unknown schema \(missing session\.parent_id, .*part\.data\)/);
  });
});

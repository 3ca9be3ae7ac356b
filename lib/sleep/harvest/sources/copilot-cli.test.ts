import Database from "better-sqlite3";
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harvestSessions } from "../index";
import { buildSqlite, harvestOptions, makeTempHome, treeFingerprint } from "../testing";

let home: string;
let tmp: string;
let cleanups: Array<() => void>;
let writer: Database.Database | null;
const store = () => path.join(home, ".copilot", "session-store.db");

beforeEach(() => {
  const h = makeTempHome();
  const t = makeTempHome();
  ({ home } = h);
  tmp = t.home;
  cleanups = [h.cleanup, t.cleanup];
  writer = null;
});
afterEach(() => {
  writer?.close();
  for (const c of cleanups) c();
});

const cli = (over = {}) => harvestSessions(harvestOptions(home, { source: "copilot_cli", tempDir: tmp, ...over }));

/** A live CLI writing to the store: an open connection inside a write transaction with an uncommitted session. */
function holdWriteTransaction(exclusive: boolean): void {
  writer = new Database(store());
  if (exclusive) writer.pragma("locking_mode = EXCLUSIVE");
  writer.exec("BEGIN IMMEDIATE");
  writer.exec(
    "INSERT INTO sessions VALUES ('cli-live', '/work/mu', NULL, NULL, '2026-03-19 09:00:00', '2026-03-19 09:10:00')",
  );
  writer.exec("INSERT INTO turns VALUES ('cli-live', 0, 'UNCOMMITTED prompt', 'answer')");
}

describe("copilot_cli harvest", () => {
  it("digests sessions from the store: caps, redaction before clipping, files and tools", async () => {
    buildSqlite(store(), "copilot-cli/session-store.sql", "delete");
    const r = await cli();
    expect(r.digests.map((d) => d.sessionId)).toEqual(["cli-4", "cli-2", "cli-1", "cli-6"]);
    expect(r.skipped).toMatchObject({ noProject: 1, headless: 1, meta: 1 });
    const one = r.digests.find((d) => d.sessionId === "cli-1")!;
    expect(one).toMatchObject({
      project: "/work/mu",
      gitBranch: "perf/tests",
      startedAt: "2026-03-17T09:00:00Z",
      endedAt: "2026-03-17T09:20:00Z",
      userPrompts: [
        "Speed up the slow integration test",
        "Nope, it is still 40 s. The CI password=[REDACTED] if you need it",
      ],
      filesTouched: ["/work/mu/package.json", "/work/mu/test/setup.ts"],
      toolsUsed: ["view", "edit"],
      feedbackSignals: ["neg:nope"],
      nUserTurns: 2,
      nAssistantTurns: 2,
      rawPath: `${store()}#cli-1`,
    });
    const long = one.assistantFinals[1]!;
    expect(long).toHaveLength(4000);
    expect(long).not.toContain("sk-proj");
    expect(JSON.stringify(r)).not.toMatch(/hunter2|NO FOLDER|HEADLESS/);
  });

  it("keeps at most 40 prompts and the last 5 answers of a long session", async () => {
    buildSqlite(store(), "copilot-cli/session-store.sql", "delete");
    const two = (await cli()).digests.find((d) => d.sessionId === "cli-2")!;
    expect(two.userPrompts).toHaveLength(40);
    expect(two.userPrompts.at(-1)).toBe("refactor step 39");
    expect(two.nUserTurns).toBe(45);
    expect(two.assistantFinals).toEqual([40, 41, 42, 43, 44].map((i) => `done with step ${i}`));
  });

  it("applies scope and since", async () => {
    buildSqlite(store(), "copilot-cli/session-store.sql", "delete");
    const r = await cli({
      scope: { kind: "invoked", project: "/work/mu" },
      since: { kind: "after", iso: "2026-03-01T00:00:00Z" },
    });
    expect(r.digests.map((d) => d.sessionId)).toEqual(["cli-2", "cli-1"]);
    expect(r.skipped).toMatchObject({ outOfScope: 1, beforeSince: 1 });
  });

  it("reads a rollback-journal store in place and writes nothing", async () => {
    buildSqlite(store(), "copilot-cli/session-store.sql", "delete");
    const before = treeFingerprint(home);
    const r = await cli();
    expect(r.digests).toHaveLength(4);
    expect(r.notes.join("\n")).not.toContain("snapshot");
    expect(treeFingerprint(home)).toEqual(before);
  });

  it.each([
    ["a write transaction", false],
    ["an exclusive lock", true],
  ])(
    "reads a WAL store whose writer holds %s through a private snapshot, and writes nothing",
    async (_what, exclusive) => {
      buildSqlite(store(), "copilot-cli/session-store.sql", "wal");
      holdWriteTransaction(exclusive);
      const before = treeFingerprint(home);
      const r = await cli();
      expect(r.digests.map((d) => d.sessionId)).toEqual(["cli-4", "cli-2", "cli-1", "cli-6"]);
      expect(r.notes.join("\n")).toContain("private snapshot");
      expect(JSON.stringify(r)).not.toContain("UNCOMMITTED");
      expect(treeFingerprint(home)).toEqual(before);
      expect(readdirSync(tmp)).toEqual([]);
    },
  );

  it("reads the committed state of a rollback-journal store in the middle of a write", async () => {
    buildSqlite(store(), "copilot-cli/session-store.sql", "delete");
    writer = new Database(store());
    writer.exec("BEGIN EXCLUSIVE");
    writer.exec("DELETE FROM turns");
    writer.exec(
      "INSERT INTO sessions VALUES ('cli-live', '/work/mu', NULL, NULL, '2026-03-19 09:00:00', '2026-03-19 09:10:00')",
    );
    const before = treeFingerprint(home);
    const r = await cli();
    expect(r.digests.map((d) => d.sessionId)).toEqual(["cli-4", "cli-2", "cli-1", "cli-6"]);
    expect(treeFingerprint(home)).toEqual(before);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("a missing store or a file that is not a database is a note", async () => {
    const missing = await cli();
    expect(missing.digests).toEqual([]);
    expect(missing.notes.join("\n")).toContain("no Copilot CLI sessions read");
    const junk = path.join(home, "junk.db");
    writeFileSync(junk, "this is not SQLite");
    const r = await cli({ copilotCliSessionStore: junk });
    expect(r.digests).toEqual([]);
    expect(r.notes.join("\n")).toContain(`no Copilot CLI sessions read from ${junk}`);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { TRANSCRIPT_SOURCES } from "../session-digest";
import { harvestSessions, type HarvestOptions } from "./index";
import { parseHarvestOptions } from "./options";
import { HarvestRun } from "./run";
import { forEachRecord } from "./sources/common";
import { buildSqlite, harvestOptions, installFixture, makeTempHome, treeFingerprint } from "./testing";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

/** Every source's fixture in its default place below `home` (VS Code through XDG_CONFIG_HOME). */
function installEverything(): HarvestOptions {
  installFixture("claude", path.join(home, ".claude"));
  installFixture("codex", path.join(home, ".codex"));
  installFixture("cursor", path.join(home, ".cursor"));
  installFixture("pi", path.join(home, ".pi"));
  installFixture("vscode/workspaceStorage", path.join(home, ".config", "Code", "User", "workspaceStorage"));
  buildSqlite(path.join(home, ".copilot", "session-store.db"), "copilot-cli/session-store.sql", "wal");
  buildSqlite(path.join(home, ".local", "share", "opencode", "opencode.db"), "opencode/opencode.sql", "wal");
  return harvestOptions(home, { env: { XDG_CONFIG_HOME: path.join(home, ".config") } });
}

describe("harvestSessions", () => {
  it("reads every source without writing a byte under the agents' homes, and redacts every secret", async () => {
    const tmp = makeTempHome();
    try {
      const opts = { ...installEverything(), tempDir: tmp.home };
      const before = treeFingerprint(home);
      const all = [];
      for (const source of TRANSCRIPT_SOURCES) {
        const r = await harvestSessions({ ...opts, source });
        expect(r.digests.length, source).toBeGreaterThan(0);
        all.push(...r.digests);
      }
      expect(treeFingerprint(home)).toEqual(before);
      expect(new Set(all.map((d) => d.source))).toEqual(new Set(TRANSCRIPT_SOURCES.filter((s) => s !== "auto")));
      const text = JSON.stringify(all);
      for (const secret of [
        "Zz9Yy8Xx7Ww6Vv5Uu4Tt3",
        "ghp_abcdef",
        "xoxb-1234567890",
        "hunter2",
        "pa55word",
        "sk-proj-ABC",
      ]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      tmp.cleanup();
    }
  });

  it("auto reads Codex first and falls back to Claude Code when Codex has nothing", async () => {
    installFixture("claude", path.join(home, ".claude"));
    const claudeOnly = await harvestSessions(harvestOptions(home, { source: "auto" }));
    expect(claudeOnly.source).toBe("claude");
    expect(claudeOnly.digests.length).toBeGreaterThan(0);
    expect(claudeOnly.notes.join("\n")).toContain("auto: no matching Codex session, reading Claude Code");
    installFixture("codex", path.join(home, ".codex"));
    const both = await harvestSessions(harvestOptions(home, { source: "auto" }));
    expect(both.source).toBe("codex");
    expect(both.digests.every((d) => d.source === "codex")).toBe(true);
  });

  it("an unreadable transcript is counted and noted, never thrown", async () => {
    const run = new HarvestRun(parseHarvestOptions(harvestOptions(home)));
    const missing = path.join(home, "gone.jsonl");
    expect(await forEachRecord(run, missing, () => undefined)).toBe(false);
    expect(run.skipped.unreadable).toBe(1);
    expect(run.notes).toEqual([`cannot read ${missing}: ENOENT`]);
  });

  it.each<[string, Partial<HarvestOptions>, string]>([
    ["an unknown source", { source: "vim" as never }, "harvest.source"],
    ["a negative limit", { limit: -1 }, "harvest.limit"],
    ["an invoked scope without a project", { scope: { kind: "invoked" } as never }, "harvest.scope.project"],
    ["a since that is not a time", { since: { kind: "after", iso: "yesterday" } }, "harvest.since.iso"],
    [
      "a lookback window without a clock",
      { since: { kind: "checkpoints", checkpoints: {}, lookbackHours: 72 } },
      "harvest.clock",
    ],
  ])("rejects %s, naming the field", async (_what, over, field) => {
    const err = await harvestSessions(harvestOptions(home, over)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).field).toBe(field);
    expect((err as AppError).message).toMatch(new RegExp(`^${field.replace(/\./g, "\\.")}: `));
  });
});

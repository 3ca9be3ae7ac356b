import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harvestSessions } from "../index";
import { harvestOptions, installFixture, makeTempHome, setMtime } from "../testing";
import { projectFromWorkspaceJson } from "./copilot";

let home: string;
let cleanup: () => void;

/** Installs the VS Code fixture as `<userDir>/User/workspaceStorage` with the chats' file times set. */
function installVscode(userDir: string): string {
  const storage = path.join(userDir, "User", "workspaceStorage");
  installFixture("vscode/workspaceStorage", storage);
  setMtime(path.join(storage, "ws1", "chatSessions", "chat-a.jsonl"), "2026-03-09T09:03:00Z");
  setMtime(path.join(storage, "ws2", "chatSessions", "chat-b.json"), "2026-03-10T09:01:00Z");
  setMtime(path.join(storage, "ws3", "chatSessions", "chat-c.jsonl"), "2026-03-11T09:01:00Z");
  return storage;
}

beforeEach(() => ({ home, cleanup } = makeTempHome()));
afterEach(() => cleanup());

describe("copilot (VS Code) harvest", () => {
  it("replays the operation log and keeps only the user's own Copilot Chat requests", async () => {
    const storage = installVscode(path.join(home, "somewhere"));
    const r = await harvestSessions(harvestOptions(home, { source: "copilot", vscodeWorkspaceStorage: storage }));
    expect(r.digests.map((d) => d.sessionId)).toEqual(["chat-b", "chat-a"]);
    const a = r.digests[1]!;
    expect(a).toMatchObject({
      project: "/work/epsilon app",
      startedAt: "2026-03-09T09:00:00.000Z",
      endedAt: "2026-03-09T09:02:40.000Z",
      nUserTurns: 2,
      nAssistantTurns: 2,
      source: "copilot",
      rawPath: path.join(storage, "ws1", "chatSessions", "chat-a.jsonl"),
    });
    expect(a.userPrompts).toEqual([
      "Why does the parser test time out?",
      "That's wrong, the fixture opens the socket. Token: [REDACTED_SLACK_TOKEN]",
    ]);
    expect(a.assistantFinals).toEqual([
      "The test waits on a socket that never opens. Mock the socket.",
      "You're right: the fixture opens it late, so the test now waits for it.",
    ]);
    expect(a.toolsUsed).toEqual(["copilot_readFile"]);
    expect(a.feedbackSignals).toEqual(["neg:that's wrong", "neg:wrong"]);
    // a system-initiated request and one for another participant; the empty window has no project
    expect(r.skipped).toMatchObject({ foreignRequests: 2, noProject: 1, corruptLines: 2 });
    const text = JSON.stringify(r);
    for (const never of [
      "SYSTEM REQUEST",
      "FOREIGN REQUEST",
      "DRAFT",
      "DELETED REQUEST",
      "HALF WRITT",
      "NEVER KEPT",
      "PRIVATE",
      "EMPTY WINDOW",
    ]) {
      expect(text).not.toContain(never);
    }
  });

  it("reads a legacy whole-state .json session and a multi-root workspace's folder", async () => {
    const storage = installVscode(path.join(home, "somewhere"));
    const r = await harvestSessions(harvestOptions(home, { source: "copilot", vscodeWorkspaceStorage: storage }));
    expect(r.digests[0]).toMatchObject({
      sessionId: "chat-b",
      project: "/work/zeta",
      userPrompts: ["Add a CHANGELOG entry for 2.1"],
      assistantFinals: ["Added under Unreleased."],
      endedAt: "2026-03-10T09:00:30.000Z",
    });
  });

  it("finds stable, Insiders and portable installs by default, each session once", async () => {
    installVscode(path.join(home, "xdg", "Code - Insiders"));
    installVscode(path.join(home, "portable", "user-data"));
    const r = await harvestSessions(
      harvestOptions(home, {
        source: "copilot",
        env: { XDG_CONFIG_HOME: path.join(home, "xdg"), VSCODE_PORTABLE: path.join(home, "portable") },
      }),
    );
    expect(
      r.digests.map((d) => (d.rawPath.startsWith(path.join(home, "portable")) ? "portable" : "insiders")).sort(),
    ).toEqual(["insiders", "insiders", "portable", "portable"]);
  });

  it("scopes by the workspace folder", async () => {
    const storage = installVscode(home);
    const r = await harvestSessions(
      harvestOptions(home, {
        source: "copilot",
        vscodeWorkspaceStorage: storage,
        scope: { kind: "invoked", project: "/work/zeta" },
      }),
    );
    expect(r.digests.map((d) => d.sessionId)).toEqual(["chat-b"]);
  });

  it("notes when no VS Code install is found", async () => {
    const r = await harvestSessions(harvestOptions(home, { source: "copilot" }));
    expect(r.digests).toEqual([]);
    expect(r.notes.join("\n")).toContain("no VS Code Copilot Chat sessions");
  });

  it("reads the project from workspace.json on every platform", () => {
    expect(projectFromWorkspaceJson({ folder: "file:///home/me/my%20app" }, "linux")).toBe("/home/me/my app");
    expect(projectFromWorkspaceJson({ folder: "file:///c%3A/Users/me/app" }, "win32")).toBe("c:\\Users\\me\\app");
    expect(projectFromWorkspaceJson({ workspace: "file:///c%3A/ws/all.code-workspace" }, "win32")).toBe("c:\\ws");
    expect(projectFromWorkspaceJson({ folder: "vscode-remote://ssh-remote+box/home/me" }, "linux")).toBe("");
    expect(projectFromWorkspaceJson(null, "linux")).toBe("");
  });
});

import { describe, expect, it } from "vitest";
import { claudeRoot, copilotCliStore, opencodeDbPath, vscodeWorkspaceStorageRoots } from "./roots";

const base = { home: "/home/me", platform: "linux", env: {} as Record<string, string | undefined> };

describe("source roots", () => {
  it("default to dot folders below home; an explicit root wins, relative to home", () => {
    expect(claudeRoot({ ...base, claudeHome: "" })).toBe("/home/me/.claude");
    expect(claudeRoot({ ...base, claudeHome: "/data/claude" })).toBe("/data/claude");
    expect(claudeRoot({ ...base, claudeHome: "alt/.claude" })).toBe("/home/me/alt/.claude");
    expect(copilotCliStore({ ...base, copilotCliSessionStore: "" })).toBe("/home/me/.copilot/session-store.db");
  });

  it("VS Code: portable first, then stable and Insiders, per platform", () => {
    expect(vscodeWorkspaceStorageRoots({ ...base, vscodeWorkspaceStorage: "" })).toEqual([
      "/home/me/.config/Code/User/workspaceStorage",
      "/home/me/.config/Code - Insiders/User/workspaceStorage",
    ]);
    expect(
      vscodeWorkspaceStorageRoots({
        ...base,
        env: { XDG_CONFIG_HOME: "/cfg", VSCODE_PORTABLE: "/usb/vscode-data" },
        vscodeWorkspaceStorage: "",
      }),
    ).toEqual([
      "/usb/vscode-data/user-data/User/workspaceStorage",
      "/cfg/Code/User/workspaceStorage",
      "/cfg/Code - Insiders/User/workspaceStorage",
    ]);
    expect(vscodeWorkspaceStorageRoots({ ...base, platform: "darwin", vscodeWorkspaceStorage: "" })[0]).toBe(
      "/home/me/Library/Application Support/Code/User/workspaceStorage",
    );
    expect(
      vscodeWorkspaceStorageRoots({
        home: "C:\\Users\\me",
        platform: "win32",
        env: { APPDATA: "D:\\Roaming" },
        vscodeWorkspaceStorage: "",
      }),
    ).toEqual(["D:\\Roaming\\Code\\User\\workspaceStorage", "D:\\Roaming\\Code - Insiders\\User\\workspaceStorage"]);
    expect(vscodeWorkspaceStorageRoots({ ...base, vscodeWorkspaceStorage: "/x/ws" })).toEqual(["/x/ws"]);
  });

  it("OpenCode: configured path, OPENCODE_DB, XDG_DATA_HOME, Windows app data, then ~/.local/share", () => {
    const none = () => false;
    expect(opencodeDbPath({ ...base, opencodeDb: "" }, none)).toBe("/home/me/.local/share/opencode/opencode.db");
    expect(opencodeDbPath({ ...base, env: { XDG_DATA_HOME: "/xdg" }, opencodeDb: "" }, none)).toBe(
      "/xdg/opencode/opencode.db",
    );
    expect(opencodeDbPath({ ...base, env: { OPENCODE_DB: "/abs/oc.db" }, opencodeDb: "" }, none)).toBe("/abs/oc.db");
    expect(opencodeDbPath({ ...base, env: { OPENCODE_DB: "alt.db" }, opencodeDb: "" }, none)).toBe(
      "/home/me/.local/share/opencode/alt.db",
    );
    expect(opencodeDbPath({ ...base, env: { OPENCODE_DB: "/abs/oc.db" }, opencodeDb: "/cfg/oc.db" }, none)).toBe(
      "/cfg/oc.db",
    );
    expect(opencodeDbPath({ ...base, env: { OPENCODE_DB: ":memory:" }, opencodeDb: "" }, none)).toBeNull();
    const win = {
      home: "C:\\Users\\me",
      platform: "win32",
      env: { LOCALAPPDATA: "C:\\Local", APPDATA: "C:\\Roaming" },
      opencodeDb: "",
    };
    expect(opencodeDbPath(win, none)).toBe("C:\\Local\\opencode\\opencode.db");
    // the first data folder that has a database wins
    expect(opencodeDbPath(win, (f) => f.startsWith("C:\\Roaming"))).toBe("C:\\Roaming\\opencode\\opencode.db");
  });
});

/**
 * GitHub Copilot Chat in VS Code (stable, Insiders, portable): `<user data>/User/workspaceStorage/<id>/
 * chatSessions/*.jsonl` operation logs (see vscode-oplog.ts; a legacy `.json` file is the whole state).
 * The project is the folder named by the sibling `workspace.json`. Only requests handled by the Copilot
 * Chat extension and typed by the user are read: the prompt, the Markdown parts of the response and the
 * ids of the tools it invoked — never reasoning, tool input/output or attached context.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DigestBuilder } from "../builder";
import { listFiles, subfolders, type FoundFile } from "../files";
import type { HarvestRun } from "../run";
import { isoFromEpoch } from "../scope";
import { forEachRecord, obj, stem, str } from "./common";
import { applyOperation } from "./vscode-oplog";

const COPILOT_EXTENSION = "github.copilot-chat";

interface ChatFile extends FoundFile {
  project: string;
}

/** Folder URI (`folder`) or multi-root workspace file URI (`workspace`, its folder) of a workspace. */
export function projectFromWorkspaceJson(data: unknown, platform: string): string {
  const o = obj(data);
  const toPath = (uri: unknown): string => {
    if (typeof uri !== "string" || !uri.startsWith("file:")) return "";
    try {
      return fileURLToPath(uri, { windows: platform === "win32" });
    } catch {
      return "";
    }
  };
  const folder = toPath(o?.folder);
  if (folder) return folder;
  const workspace = toPath(o?.workspace);
  return workspace ? (platform === "win32" ? path.win32 : path.posix).dirname(workspace) : "";
}

async function workspaceProject(dir: string, platform: string): Promise<string> {
  try {
    return projectFromWorkspaceJson(JSON.parse(await readFile(path.join(dir, "workspace.json"), "utf8")), platform);
  } catch {
    return "";
  }
}

/** Chat logs of every workspace under the roots, newest first; only `chatSessions` folders are listed. */
async function discoverChats(run: HarvestRun, roots: string[]): Promise<ChatFile[]> {
  const chats: ChatFile[] = [];
  const seen = new Set<string>();
  let rootsFound = 0;
  for (const root of roots) {
    const workspaces = await subfolders(root);
    if (workspaces === null) continue;
    rootsFound += 1;
    for (const workspaceDir of workspaces) {
      const files = await listFiles(path.join(workspaceDir, "chatSessions"), {
        recursive: false,
        accept: (n) => n.endsWith(".jsonl") || n.endsWith(".json"),
        onError: (folder, err) => run.note(`cannot list ${folder}: ${err.code ?? err.message}`),
      });
      if (!files || files.length === 0) continue;
      const project = await workspaceProject(workspaceDir, run.opts.platform);
      for (const f of files) {
        if (seen.has(f.path)) continue;
        seen.add(f.path);
        chats.push({ ...f, project });
      }
    }
  }
  if (rootsFound === 0) run.note(`no VS Code Copilot Chat sessions: none of ${roots.join(", ")} is a folder`);
  return chats.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}

/** The session as VS Code last saved it, or null when the log never set a state. */
async function replaySession(run: HarvestRun, file: string): Promise<Record<string, unknown> | null | false> {
  if (file.endsWith(".json")) {
    try {
      return obj(JSON.parse(await readFile(file, "utf8")));
    } catch {
      run.skip("corruptSessions");
      return null;
    }
  }
  let state: Record<string, unknown> | null = null;
  const ok = await forEachRecord(run, file, (op) => {
    state = applyOperation(state, op);
  });
  return ok ? state : false;
}

function extensionId(request: Record<string, unknown>): string {
  const id = obj(request.agent)?.extensionId;
  if (typeof id === "string") return id.toLowerCase();
  const o = obj(id);
  return (str(o?._lower) || str(o?.value)).toLowerCase();
}

function readRequest(run: HarvestRun, b: DigestBuilder, request: Record<string, unknown>): void {
  if (extensionId(request) !== COPILOT_EXTENSION || request.isSystemInitiated === true) {
    run.skip("foreignRequests");
    return;
  }
  // A request whose prompt is empty or a meta prompt is not the user's work, nor is its answer.
  if (!b.addUser(str(obj(request.message)?.text))) return;
  b.seeTime(isoFromEpoch(request.timestamp));
  b.seeTime(isoFromEpoch(obj(request.modelState)?.completedAt));
  const parts = Array.isArray(request.response) ? request.response.map(obj) : [];
  // Markdown parts have no kind in some VS Code builds and kind "markdownContent" in others.
  const markdown = parts
    .filter((p) => p && (p.kind === undefined || p.kind === "markdownContent"))
    .map((p) => str(p!.value));
  b.addAssistant(markdown.join(""));
  for (const p of parts) if (p?.kind === "toolInvocationSerialized") b.addTool(p.toolId);
}

export async function harvestCopilot(run: HarvestRun, roots: string[]): Promise<void> {
  for (const chat of await discoverChats(run, roots)) {
    if (run.full) break;
    if (run.olderThanSince(chat.mtimeMs)) {
      run.skip("beforeSince");
      continue;
    }
    const session = await replaySession(run, chat.path);
    if (session === false) continue;
    const b = new DigestBuilder(run, {
      sessionId: str(session?.sessionId) || stem(chat.path),
      source: "copilot",
      rawPath: chat.path,
    });
    b.project = chat.project;
    b.seeTime(isoFromEpoch(session?.creationDate));
    const requests = Array.isArray(session?.requests) ? session.requests : [];
    for (const r of requests) {
      const request = obj(r);
      if (request) readRequest(run, b, request);
    }
    run.admit(b.build(), { needsProject: true });
  }
}

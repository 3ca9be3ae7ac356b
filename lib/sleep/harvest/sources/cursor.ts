/**
 * Cursor agent: `<cursor home>/projects/<slug>/agent-transcripts/<session>/<session>.jsonl`, where the
 * slug is the workspace path with every run of non-alphanumerics turned into `-`, and the workspace
 * path itself may be recorded in `<slug>/.workspace-trusted`. Records carry `role` and
 * `message{content}`; `turn_ended` with status `error` is a failed turn. There are no timestamps, so
 * a transcript's modification time is its end. Tool inputs and outputs are never read.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { DigestBuilder, textOfContent } from "../builder";
import { subfolders, type FoundFile } from "../files";
import type { HarvestRun } from "../run";
import { isSameOrInside, type PathRules } from "../scope";
import { forEachRecord, listTranscripts, obj, stem, str } from "./common";

/** Prefix of every prompt SkillOpt-Sleep sends through Cursor when it replays a task. */
export const CURSOR_REPLAY_SENTINEL = "<skillopt_sleep_internal_replay_v1>";
export const CURSOR_TURN_ERROR = "neg:cursor_turn_error";

const USER_QUERY = /<user_query>\s*([\s\S]*?)\s*<\/user_query>\s*$/;

export function cursorSlug(project: string, rules: PathRules): string {
  return rules.api
    .resolve(project)
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

interface ProjectDir {
  dir: string;
  /** The recorded (or slug-derived) workspace folder; "" when unknown. */
  workspace: string;
}

async function recordedWorkspace(dir: string, rules: PathRules): Promise<string> {
  try {
    const meta = obj(JSON.parse(await readFile(path.join(dir, ".workspace-trusted"), "utf8")));
    const ws = str(meta?.workspacePath).trim();
    return ws && rules.api.isAbsolute(ws) ? rules.api.resolve(ws) : "";
  } catch {
    return "";
  }
}

/**
 * The project folders to read. `all`: every one. Otherwise, for each wanted project, the folders whose
 * workspace contains it (recorded path, or a slug match walking up from the project), keeping only the
 * most specific workspace.
 */
async function projectDirs(run: HarvestRun, root: string): Promise<ProjectDir[] | null> {
  const dirs = await subfolders(root);
  if (dirs === null) return null;
  const available: ProjectDir[] = [];
  for (const dir of dirs) {
    const transcripts = await subfolders(path.join(dir, "agent-transcripts"));
    if (transcripts !== null) available.push({ dir, workspace: await recordedWorkspace(dir, run.rules) });
  }
  const scope = run.opts.scope;
  if (scope.kind === "all") return available;
  const wanted = scope.kind === "invoked" ? [scope.project] : scope.projects;
  const chosen = new Map<string, ProjectDir>();
  for (const project of wanted) {
    const matches = available.filter((p) => p.workspace && isSameOrInside(project, p.workspace, run.rules));
    for (let folder = run.rules.api.resolve(project); ; folder = run.rules.api.dirname(folder)) {
      const bySlug = available.find((p) => path.basename(p.dir) === cursorSlug(folder, run.rules));
      if (bySlug) {
        matches.push({ dir: bySlug.dir, workspace: bySlug.workspace || folder });
        break;
      }
      if (run.rules.api.dirname(folder) === folder) break;
    }
    const longest = Math.max(...matches.map((m) => m.workspace.length));
    for (const m of matches) if (m.workspace.length === longest && !chosen.has(m.dir)) chosen.set(m.dir, m);
  }
  return [...chosen.values()];
}

function readRecord(b: DigestBuilder, rec: Record<string, unknown>, replay: { seen: boolean }): void {
  if (rec.type === "turn_ended") {
    if (rec.status === "error") b.addSignal(CURSOR_TURN_ERROR);
    return;
  }
  const msg = obj(rec.message);
  if (!msg) return;
  const role = rec.role ?? msg.role;
  const text = textOfContent(msg.content);
  if (role === "user") {
    if (text.trimStart().startsWith(CURSOR_REPLAY_SENTINEL)) replay.seen = true;
    b.addUser(USER_QUERY.exec(text.trim())?.[1] ?? text);
  } else if (role === "assistant") {
    b.addAssistant(text);
    for (const block of Array.isArray(msg.content) ? msg.content : []) {
      const o = obj(block);
      if (o?.type === "tool_use") b.addTool(o.name);
    }
  }
}

export async function harvestCursor(run: HarvestRun, cursorHome: string): Promise<void> {
  const root = path.join(cursorHome, "projects");
  const dirs = await projectDirs(run, root);
  if (dirs === null) {
    run.note(`no Cursor transcripts: ${root} is not a folder`);
    return;
  }
  const candidates: Array<FoundFile & { project: string }> = [];
  for (const p of dirs) {
    const files = await listTranscripts(run, "Cursor", path.join(p.dir, "agent-transcripts"), {
      recursive: true,
      accept: (n) => n.endsWith(".jsonl"),
    });
    candidates.push(...files.map((f) => ({ ...f, project: p.workspace })));
  }
  candidates.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  for (const f of candidates) {
    if (run.full) break;
    if (run.olderThanSince(f.mtimeMs)) {
      run.skip("beforeSince");
      continue;
    }
    const b = new DigestBuilder(run, { sessionId: stem(f.path), source: "cursor", rawPath: f.path });
    b.project = f.project;
    b.endedAt = new Date(Math.floor(f.mtimeMs / 1000) * 1000).toISOString();
    const replay = { seen: false };
    if (!(await forEachRecord(run, f.path, (rec) => readRecord(b, rec, replay)))) continue;
    // The folders were chosen by scope already, and a workspace may contain the listed project.
    if (replay.seen) run.skip("ownReplays");
    else run.admit(b.build(), { scoped: true });
  }
}

/**
 * Claude Code: `<claude home>/projects/<slug>/<session>.jsonl`, one record per line. Records of type
 * user/assistant carry `message{role, content}`, `cwd`, `gitBranch`, `timestamp`; `file-history-snapshot`
 * records name the files the session edited. Sub-agent sidechains (`subagents/` folders, `agent-*.jsonl`,
 * records flagged `isSidechain`) are Claude talking to itself and are never read as the user's work.
 */
import path from "node:path";
import { DigestBuilder, textOfContent } from "../builder";
import type { HarvestRun } from "../run";
import { forEachRecord, listTranscripts, obj, stem, str } from "./common";

/** Files named per snapshot; a long session's snapshots repeat the same files. */
const FILES_PER_SNAPSHOT = 20;
const SNAPSHOT_META_KEYS = new Set(["messageId", "timestamp", "trackedFileBackups", "isSnapshotUpdate"]);

export async function harvestClaude(run: HarvestRun, claudeHome: string): Promise<void> {
  const root = path.join(claudeHome, "projects");
  const files = await listTranscripts(run, "Claude Code", root, {
    recursive: true,
    accept: (name) => name.endsWith(".jsonl"),
  });
  for (const f of files) {
    if (run.full) break;
    const rel = path.relative(root, f.path).split(path.sep);
    if (rel.includes("subagents") || rel.at(-1)!.startsWith("agent-")) {
      run.skip("subagent");
      continue;
    }
    if (run.olderThanSince(f.mtimeMs)) {
      run.skip("beforeSince");
      continue;
    }
    const b = new DigestBuilder(run, { sessionId: stem(f.path), source: "claude", rawPath: f.path });
    if (await forEachRecord(run, f.path, (rec) => readRecord(b, rec))) run.admit(b.build());
  }
}

function readRecord(b: DigestBuilder, rec: Record<string, unknown>): void {
  if (rec.isSidechain === true) return;
  b.seeTime(rec.timestamp);
  if (!b.project && str(rec.cwd)) b.project = str(rec.cwd);
  if (!b.gitBranch && str(rec.gitBranch)) b.gitBranch = str(rec.gitBranch);
  if (rec.type === "file-history-snapshot") {
    for (const file of snapshotFiles(rec)) b.addFile(file);
    return;
  }
  const msg = obj(rec.message);
  if (!msg) return;
  if (msg.role === "user") {
    // Claude Code flags its own injected notices (caveats, command output) as meta.
    if (rec.isMeta === true) b.dropMeta(textOfContent(msg.content));
    else b.addUser(textOfContent(msg.content));
  } else if (msg.role === "assistant") {
    b.addAssistant(textOfContent(msg.content));
    for (const block of Array.isArray(msg.content) ? msg.content : []) readToolUse(b, obj(block));
  }
}

function readToolUse(b: DigestBuilder, block: Record<string, unknown> | null): void {
  if (!block || block.type !== "tool_use") return;
  b.addTool(block.name);
  // Only a well-formed Skill call names a skill; nothing else of a tool's input is read.
  if (block.name === "Skill") {
    const skill = obj(block.input)?.skill;
    if (typeof skill === "string") b.addSkill(skill);
  }
}

/** The edited files of a snapshot record (current layout: `snapshot.trackedFileBackups`; older: a map of files). */
function snapshotFiles(rec: Record<string, unknown>): string[] {
  const snap = obj(rec.snapshot);
  const map = obj(snap?.trackedFileBackups) ?? obj(rec.files) ?? snap;
  if (!map) return [];
  return Object.keys(map)
    .filter((k) => !SNAPSHOT_META_KEYS.has(k))
    .slice(0, FILES_PER_SNAPSHOT);
}

/**
 * GitHub Copilot CLI: the global index `~/.copilot/session-store.db` (SQLite) with
 * `sessions(id, cwd, repository, branch, created_at, updated_at)`,
 * `turns(session_id, turn_index, user_message, assistant_response)` and
 * `session_files(session_id, file_path, tool_name)`. Live CLI sessions write to it, so it is read
 * through openStoreReadOnly. One long session cannot dominate a night: at most 40 prompts, the last 5
 * answers, 4000 characters each (redacted before clipping).
 */
import type Database from "better-sqlite3";
import { DigestBuilder } from "../builder";
import type { HarvestRun } from "../run";
import { normalizeSqlTime, toEpochMs } from "../scope";
import { openStoreReadOnly } from "../sqlite";
import { str } from "./common";

const MAX_PROMPTS = 40;
const MAX_CHARS = 4000;

interface SessionRow {
  id: unknown;
  cwd: unknown;
  branch: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export async function harvestCopilotCli(run: HarvestRun, store: string): Promise<void> {
  let opened;
  try {
    opened = openStoreReadOnly(
      store,
      "SELECT id, cwd, branch, created_at, updated_at FROM sessions LIMIT 1",
      run.opts.tempDir,
    );
  } catch (err) {
    run.note(
      `no Copilot CLI sessions read from ${store}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
    return;
  }
  try {
    if (opened.snapshot) run.note(`Copilot CLI store read from a private snapshot (${store} is in WAL mode or busy)`);
    readSessions(run, opened.db, store);
  } catch (err) {
    // Schema drift or a store that changed mid-read: what was read stays, the rest is a note.
    run.note(`Copilot CLI store ${store} could not be read completely: ${(err as Error).message}`);
  } finally {
    opened.close();
  }
}

function readSessions(run: HarvestRun, db: Database.Database, store: string): void {
  // The sessions table is one small row per session; turns are read only for the candidates.
  const lowest = run.since.lowest;
  const rows = (db.prepare("SELECT id, cwd, branch, created_at, updated_at FROM sessions").all() as SessionRow[])
    .map((row) => ({ row, ended: toEpochMs(normalizeSqlTime(row.updated_at)) }))
    // Newest first by time, not by text: "…T10:00" sorts after "… 12:30" as a string.
    .sort(
      (a, b) => (b.ended ?? -Infinity) - (a.ended ?? -Infinity) || String(a.row.id).localeCompare(String(b.row.id)),
    );
  const turns = db.prepare(
    "SELECT user_message, assistant_response FROM turns WHERE session_id = ? ORDER BY turn_index",
  );
  const files = db.prepare(
    "SELECT DISTINCT file_path, tool_name FROM session_files WHERE session_id = ? ORDER BY file_path",
  );
  for (const { row, ended } of rows) {
    if (run.full) break;
    if (typeof row.id !== "string" && typeof row.id !== "number") {
      run.skip("corruptLines");
      continue;
    }
    const id = String(row.id);
    const project = str(row.cwd);
    // Scope before reading the turns: most of the store belongs to other projects.
    if (project && !run.inScope(project)) {
      run.skip("outOfScope");
      continue;
    }
    if (ended !== null && lowest !== null && ended < lowest) {
      run.skip("beforeSince");
      continue;
    }
    const b = new DigestBuilder(
      run,
      { sessionId: id, source: "copilot_cli", rawPath: `${store}#${id}` },
      { maxPrompts: MAX_PROMPTS, maxChars: MAX_CHARS },
    );
    b.project = project;
    b.gitBranch = str(row.branch);
    b.startedAt = normalizeSqlTime(row.created_at);
    b.endedAt = normalizeSqlTime(row.updated_at);
    for (const t of turns.all(id) as Array<{ user_message: unknown; assistant_response: unknown }>) {
      b.addUser(str(t.user_message));
      if (str(t.assistant_response).trim()) b.addAssistant(str(t.assistant_response));
    }
    for (const f of files.all(id) as Array<{ file_path: unknown; tool_name: unknown }>) {
      b.addFile(str(f.file_path));
      b.addTool(f.tool_name);
    }
    run.admit(b.build(), { needsProject: true });
  }
}

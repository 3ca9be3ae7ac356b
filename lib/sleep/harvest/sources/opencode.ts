/**
 * OpenCode: the SQLite database `opencode.db` with `session(id, parent_id, directory, agent,
 * time_created, time_updated[, metadata])`, `message(id, session_id, time_created, data)` and
 * `part(id, message_id, session_id, time_created, data)`, where `data` is JSON. Only top-level sessions
 * are the user's (child sessions are sub-agent tasks). Visible text parts and short tool names are read;
 * reasoning, tool arguments and results, files and patches never are.
 */
import type Database from "better-sqlite3";
import { DigestBuilder } from "../builder";
import { parseObject } from "../files";
import type { HarvestRun } from "../run";
import { isoFromEpoch } from "../scope";
import { openStoreReadOnly } from "../sqlite";
import { obj, str } from "./common";

/** The agent name SkillOpt-Sleep gives its own replay sessions. */
export const OPENCODE_REPLAY_AGENT = /^skillopt-sleep-[0-9a-f]{32}$/;
export const OPENCODE_MESSAGE_ERROR = "neg:opencode_message_error";

const REQUIRED_COLUMNS: Record<string, string[]> = {
  session: ["id", "parent_id", "directory", "agent", "time_created", "time_updated"],
  message: ["id", "session_id", "time_created", "data"],
  part: ["id", "message_id", "session_id", "time_created", "data"],
};

interface SessionRow {
  id: unknown;
  parent_id: unknown;
  directory: unknown;
  agent: unknown;
  metadata: unknown;
  time_created: unknown;
  time_updated: unknown;
}

function missingColumns(db: Database.Database): string[] {
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    const have = new Set(
      (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name),
    );
    for (const c of columns) if (!have.has(c)) missing.push(`${table}.${c}`);
  }
  return missing;
}

export async function harvestOpencode(run: HarvestRun, dbPath: string): Promise<void> {
  let opened;
  try {
    opened = openStoreReadOnly(dbPath, "SELECT 1 FROM session LIMIT 1", run.opts.tempDir);
  } catch (err) {
    run.note(
      `no OpenCode sessions read from ${dbPath}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
    return;
  }
  try {
    const missing = missingColumns(opened.db);
    if (missing.length > 0)
      run.note(`OpenCode database ${dbPath} has an unknown schema (missing ${missing.join(", ")})`);
    else readSessions(run, opened.db, dbPath);
  } catch (err) {
    run.note(`OpenCode database ${dbPath} could not be read completely: ${(err as Error).message}`);
  } finally {
    opened.close();
  }
}

function readSessions(run: HarvestRun, db: Database.Database, dbPath: string): void {
  const hasMetadata = (db.prepare(`PRAGMA table_info("session")`).all() as Array<{ name: string }>).some(
    (c) => c.name === "metadata",
  );
  // Sessions are few and small; messages and parts are read only for the candidates.
  const rows = db
    .prepare(
      `SELECT id, parent_id, directory, agent, ${hasMetadata ? "metadata" : "NULL AS metadata"}, time_created, time_updated
       FROM session ORDER BY time_updated DESC, id DESC`,
    )
    .all() as SessionRow[];
  const messages = db.prepare("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id");
  const parts = db.prepare("SELECT message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id");
  for (const row of rows) {
    if (run.full) break;
    if (typeof row.id !== "string" || row.id === "") {
      run.skip("corruptLines");
      continue;
    }
    if (typeof row.time_updated === "number" && run.since.lowest !== null && row.time_updated < run.since.lowest)
      run.skip("beforeSince");
    else if (row.parent_id !== null) run.skip("subagent");
    else if (typeof row.agent === "string" && OPENCODE_REPLAY_AGENT.test(row.agent)) run.skip("ownReplays");
    else if (typeof row.directory !== "string" || !run.rules.api.isAbsolute(row.directory)) run.skip("noProject");
    else if (!run.inScope(row.directory)) run.skip("outOfScope");
    else {
      const b = new DigestBuilder(run, { sessionId: row.id, source: "opencode", rawPath: `${dbPath}#${row.id}` });
      b.project = row.directory;
      b.gitBranch = str(obj(parseObject(str(row.metadata)))?.gitBranch);
      b.startedAt = isoFromEpoch(row.time_created);
      b.endedAt = isoFromEpoch(row.time_updated);
      readMessages(
        run,
        b,
        messages.all(row.id) as Array<{ id: unknown; data: unknown }>,
        parts.all(row.id) as Array<{ message_id: unknown; data: unknown }>,
      );
      run.admit(b.build());
    }
  }
}

function parsedRow(run: HarvestRun, data: unknown): Record<string, unknown> | null {
  const parsed = parseObject(str(data));
  if (!parsed) run.skip("corruptLines");
  return parsed;
}

function readMessages(
  run: HarvestRun,
  b: DigestBuilder,
  messages: Array<{ id: unknown; data: unknown }>,
  parts: Array<{ message_id: unknown; data: unknown }>,
): void {
  const partsOf = new Map<string, Array<Record<string, unknown>>>();
  for (const p of parts) {
    const part = parsedRow(run, p.data);
    if (!part) continue;
    const key = String(p.message_id);
    const list = partsOf.get(key);
    if (list) list.push(part);
    else partsOf.set(key, [part]);
  }
  for (const m of messages) {
    const message = parsedRow(run, m.data);
    if (!message || (message.role !== "user" && message.role !== "assistant")) continue;
    const own = partsOf.get(String(m.id)) ?? [];
    // Synthetic and ignored parts are text OpenCode added itself (file contents, reminders).
    const text = own
      .filter((p) => p.type === "text" && p.synthetic !== true && p.ignored !== true && typeof p.text === "string")
      .map((p) => p.text as string)
      .join("\n");
    if (message.role === "user") {
      b.addUser(text);
      continue;
    }
    b.addAssistant(text);
    if (message.error) b.addSignal(OPENCODE_MESSAGE_ERROR);
    for (const p of own) {
      if (p.type === "tool") b.addTool(p.tool);
      else if (p.type === "tool-invocation") b.addTool(obj(p.toolInvocation)?.toolName);
    }
  }
}

/**
 * Pi (pi-coding-agent): `<pi home>/agent/sessions/<project slug>/<id>.jsonl`. The header carries the
 * working folder and start time; `message` entries carry role user / assistant / toolResult with
 * string or block content. Text blocks are read, `thinking` blocks never, `toolCall` blocks and tool
 * results only for the tool's name. A failed tool call is not feedback: agents recover from those.
 */
import path from "node:path";
import { DigestBuilder, textOfContent } from "../builder";
import type { HarvestRun } from "../run";
import { forEachRecord, listTranscripts, obj, stem, str } from "./common";
import { activeBranch } from "./pi-tree";

function readEntry(b: DigestBuilder, rec: Record<string, unknown>): void {
  b.seeTime(rec.timestamp);
  if (rec.type !== "message") return;
  const msg = obj(rec.message);
  if (!msg) return;
  if (msg.role === "user") b.addUser(textOfContent(msg.content));
  else if (msg.role === "assistant") {
    b.addAssistant(textOfContent(msg.content));
    for (const block of Array.isArray(msg.content) ? msg.content : []) {
      const o = obj(block);
      if (o?.type === "toolCall") b.addTool(o.name);
    }
  } else if (msg.role === "toolResult") b.addTool(msg.toolName);
}

export async function harvestPi(run: HarvestRun, piHome: string): Promise<void> {
  const root = path.join(piHome, "agent", "sessions");
  const files = await listTranscripts(run, "Pi", root, { recursive: true, accept: (n) => n.endsWith(".jsonl") });
  for (const f of files) {
    if (run.full) break;
    if (run.olderThanSince(f.mtimeMs)) {
      run.skip("beforeSince");
      continue;
    }
    const records: Array<Record<string, unknown>> = [];
    let corrupt = 0;
    const ok = await forEachRecord(
      run,
      f.path,
      (rec) => records.push(rec),
      () => (corrupt += 1),
    );
    if (!ok) continue;
    const branch = activeBranch(records);
    // In a tree a lost line could make an older entry look like the end of the conversation.
    if (!branch.ok || (branch.tree && corrupt > 0)) {
      run.skip("corruptSessions");
      run.note(`Pi session ${f.path} skipped: ${branch.ok ? "a tree session with unreadable lines" : branch.reason}`);
      continue;
    }
    const b = new DigestBuilder(run, { sessionId: stem(f.path), source: "pi", rawPath: f.path });
    b.project = str(branch.header.cwd);
    b.seeTime(branch.header.timestamp);
    for (const entry of branch.entries) readEntry(b, entry);
    run.admit(b.build());
  }
}

/**
 * Pi sessions: a `session` header line, then entries. Version 1 (or no version) is a plain list.
 * Versions 2 and 3 are an append-only tree (`id`, `parentId`): going back in a conversation starts a
 * side branch, and the conversation the user ended with is the branch that ends at the last entry.
 * A tree that Pi's writer could not have produced (duplicate ids, a parent not written before its
 * child, a missing `parentId`) is rejected whole rather than guessed at: a wrong guess would show the
 * optimizer an abandoned branch as the user's work.
 */
type Entry = Record<string, unknown>;

export type ActiveBranch = { ok: true; header: Entry; entries: Entry[]; tree: boolean } | { ok: false; reason: string };

function fail(reason: string): ActiveBranch {
  return { ok: false, reason };
}

/** The entries of the conversation the session ended with, oldest first. */
export function activeBranch(records: Entry[]): ActiveBranch {
  const header = records[0];
  if (!header || header.type !== "session") return fail("the first line is not a session header");
  if (records.filter((r) => r.type === "session").length !== 1) return fail("more than one session header");
  if (typeof header.id !== "string" || header.id === "") return fail("the session header has no id");
  const entries = records.slice(1);
  const version = header.version;
  if (version === undefined || version === 1) return { ok: true, header, entries, tree: false };
  if (version !== 2 && version !== 3) return fail(`unknown session version ${JSON.stringify(version)}`);
  if (entries.length === 0) return fail("a tree session without entries");

  const byId = new Map<string, Entry>();
  for (const e of entries) {
    if (typeof e.id !== "string" || e.id === "" || byId.has(e.id)) return fail("an entry id is missing or repeated");
    if (!("parentId" in e)) return fail(`entry ${e.id} has no parentId`);
    const parent = e.parentId;
    if (parent !== null && (typeof parent !== "string" || !byId.has(parent))) {
      return fail(`entry ${e.id} names a parent not written before it`);
    }
    byId.set(e.id, e);
  }
  // Parents always precede children, so the walk from the last entry ends at a root without cycles.
  const branch: Entry[] = [];
  for (let cur: Entry | undefined = entries[entries.length - 1]; cur;) {
    branch.push(cur);
    cur = cur.parentId === null ? undefined : byId.get(cur.parentId as string);
  }
  return { ok: true, header, entries: branch.reverse(), tree: true };
}

/**
 * VS Code writes each chat session as an append-only operation log: kind 0 replaces the whole state
 * (`v`), kind 1 sets the value at path `k`, kind 2 splices the array at `k` (drop everything from index
 * `i`, then append `v`; without `i`, just append), kind 3 deletes the value at `k`. Replaying the log
 * gives the session as VS Code last saved it. An operation whose path does not resolve is ignored, as
 * VS Code itself would never have written it against that state.
 */

type Json = unknown;
type Path = Array<string | number>;

function isPath(k: unknown): k is Path {
  return Array.isArray(k) && k.length > 0 && k.every((c) => typeof c === "string" || typeof c === "number");
}

function isRecord(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The container holding the last path component, and that component. */
function parentOf(root: Json, k: Path): { parent: Json; key: string | number } | null {
  let cur: Json = root;
  for (const c of k.slice(0, -1)) {
    if (Array.isArray(cur) && typeof c === "number" && c >= 0 && c < cur.length) cur = cur[c];
    else if (isRecord(cur) && typeof c === "string" && Object.hasOwn(cur, c)) cur = cur[c];
    else return null;
  }
  return { parent: cur, key: k[k.length - 1]! };
}

function setAt(root: Json, k: Path, v: Json): void {
  const at = parentOf(root, k);
  if (!at) return;
  if (isRecord(at.parent) && typeof at.key === "string") at.parent[at.key] = v;
  else if (Array.isArray(at.parent) && typeof at.key === "number" && at.key >= 0 && at.key < at.parent.length)
    at.parent[at.key] = v;
}

function deleteAt(root: Json, k: Path): void {
  const at = parentOf(root, k);
  if (!at) return;
  if (isRecord(at.parent) && typeof at.key === "string") delete at.parent[at.key];
  else if (Array.isArray(at.parent) && typeof at.key === "number" && at.key >= 0 && at.key < at.parent.length)
    at.parent.splice(at.key, 1);
}

function spliceAt(root: Json, k: Path, v: Json, i: unknown): void {
  if (v !== undefined && !Array.isArray(v)) return;
  const at = parentOf(root, k);
  if (!at) return;
  const target: Json =
    isRecord(at.parent) && typeof at.key === "string"
      ? at.parent[at.key]
      : Array.isArray(at.parent) && typeof at.key === "number"
        ? at.parent[at.key]
        : undefined;
  if (!Array.isArray(target)) return;
  const values = (v as Json[] | undefined) ?? [];
  if (i === undefined || i === null) {
    target.push(...values);
    return;
  }
  if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i > target.length) return;
  target.splice(i, target.length - i, ...values);
}

/** Applies one log record to `state`; returns the new state (a kind 0 record replaces it). */
export function applyOperation(
  state: Record<string, Json> | null,
  op: Record<string, unknown>,
): Record<string, Json> | null {
  if (op.kind === 0) return isRecord(op.v) ? op.v : state;
  if (!state || !isPath(op.k)) return state;
  if (op.kind === 1) setAt(state, op.k, op.v);
  else if (op.kind === 2) spliceAt(state, op.k, op.v, op.i);
  else if (op.kind === 3) deleteAt(state, op.k);
  return state;
}

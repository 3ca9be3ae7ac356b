/** Pieces the JSONL sources share: reading one transcript with its failures counted, and small readers. */
import path from "node:path";
import { listFiles, readJsonl, type FoundFile, type ListOptions } from "../files";
import type { HarvestRun } from "../run";

/**
 * Calls `onRecord` for each JSON object in `file`; corrupt lines are counted (and passed to
 * `onCorrupt`). Returns false (counted, with a note) when the file cannot be read at all.
 */
export async function forEachRecord(
  run: HarvestRun,
  file: string,
  onRecord: (rec: Record<string, unknown>) => void,
  onCorrupt?: () => void,
): Promise<boolean> {
  const corrupt = () => {
    run.skip("corruptLines");
    onCorrupt?.();
  };
  try {
    for await (const rec of readJsonl(file, corrupt)) onRecord(rec);
    return true;
  } catch (err) {
    run.skip("unreadable");
    run.note(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return false;
  }
}

/** The transcripts below `root`, newest first; a missing root is a note and an empty list. */
export async function listTranscripts(
  run: HarvestRun,
  label: string,
  root: string,
  o: Omit<ListOptions, "onError">,
): Promise<FoundFile[]> {
  const found = await listFiles(root, {
    ...o,
    onError: (folder, err) => run.note(`cannot list ${folder}: ${err.code ?? err.message}`),
  });
  if (found === null) run.note(`no ${label} transcripts: ${root} is not a folder`);
  return found ?? [];
}

/** The file name without its extension: the session id of most sources. */
export function stem(file: string): string {
  return path.basename(file, path.extname(file));
}

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

export function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * Deleting a run: its rows (the run and, by cascade, events, steps, skill versions, edits, results,
 * checkpoints, usage, artifacts, tags) and the files only it owns — a CLI run's output folder. Shared,
 * content-addressed files (uploads, ratio splits, the LLM cache) stay: other runs read them too.
 *
 * Nothing is left half-deleted: the run's folder is first renamed aside (same parent, so the rename is
 * atomic), then the rows are deleted in one statement that only matches a run that is not active, and only
 * then is the renamed folder removed. A refused or failed row delete renames the folder back.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { DeleteRunResponse } from "../contracts/run-list";
import { getDb, type DbTx } from "../db/client";
import { getRun } from "../db/runs";
import { AppError } from "../errors";

const ACTIVE = ["queued", "running", "cancelling"];
/** Files the CLI writes at the top of every run folder: a folder without them is not treated as a run's. */
const RUN_FOLDER_MARKERS = ["runtime_state.json", "config.json"];

export interface DeleteRunOptions {
  rootDir: string;
  db?: DbTx;
  /** Where a folder that could not be removed after the rows were deleted is reported. */
  warn?: (message: string) => void;
}

/** True when `inner` is `outer` or lies inside it. */
function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The folder a run owns, or null. Only a CLI run has one, and only when it still looks like a run folder:
 * never the project, the home folder or a folder holding either (a `--out .` run does not take the project).
 */
export function ownedRunFolder(run: { source: string; outDir: string | null }, rootDir: string): string | null {
  if (run.source !== "cli" || !run.outDir) return null;
  const dir = resolve(rootDir, run.outDir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return null;
  const real = realpathSync(dir);
  if (within(realpathSync(rootDir), real) || within(realpathSync(homedir()), real)) return null;
  if (!RUN_FOLDER_MARKERS.some((m) => existsSync(join(real, m)))) return null;
  return real;
}

/** Deletes a finished (or stopped) run with its rows and its own files; CONFLICT while it is active. */
export async function deleteRunWithFiles(id: string, opts: DeleteRunOptions): Promise<DeleteRunResponse> {
  const db = opts.db ?? getDb();
  const run = await getRun(id, { db });
  if (ACTIVE.includes(run.status)) throw activeConflict(id, run.status, run.source);
  const folder = ownedRunFolder(run, opts.rootDir);
  const aside = folder ? `${folder}.deleting-${id.slice(0, 8)}` : null;
  if (folder && aside) {
    try {
      await rename(folder, aside);
    } catch (err) {
      throw new AppError("CONFLICT", `run ${id}: could not move ${folder} aside: ${String(err)}`, {
        userMessage: `Nothing was deleted: the run's folder ${folder} could not be moved (${(err as NodeJS.ErrnoException).code ?? "error"}).`,
        cause: err,
      });
    }
  }
  let deleted = 0;
  try {
    // Conditional: a run resumed or restarted since the check above is not deleted.
    deleted = (await db.run.deleteMany({ where: { id, status: { notIn: ACTIVE } } })).count;
  } finally {
    if (deleted === 0 && folder && aside) await rename(aside, folder);
  }
  if (deleted === 0) {
    const now = await db.run.findUnique({ where: { id }, select: { status: true, source: true } });
    if (!now) throw new AppError("NOT_FOUND", `run ${id} not found`, { userMessage: "This run does not exist." });
    throw activeConflict(id, now.status, now.source);
  }
  if (aside) {
    await rm(aside, { recursive: true, force: true }).catch((err: unknown) =>
      (opts.warn ?? console.warn)(`[runs] run ${id} deleted; its folder ${aside} could not be removed: ${String(err)}`),
    );
  }
  return { id, removedPaths: folder ? [folder] : [] };
}

function activeConflict(id: string, status: string, source: string): AppError {
  const how =
    source === "cli" ? "Stop its `train` command first." : "Cancel it first, then delete it once it has stopped.";
  return new AppError("CONFLICT", `run ${id} is ${status}`, {
    userMessage: `This run is ${status}. ${how}`,
  });
}

/**
 * Harvest (spec D.4): reads a coding agent's own session records — read-only, no network — and boils
 * each session down to a SessionDigest for the miners. Nothing is written under an agent's home: JSONL
 * transcripts are read as fixed-size snapshots, SQLite stores read-only or through a private copy.
 * Every kept string is secret-redacted. A corrupt line or an unreadable file is counted and skipped; a
 * missing or unreadable source is a note, never an exception.
 */
import type { SessionDigest } from "../session-digest";
import { parseHarvestOptions, type HarvestOptions } from "./options";
import {
  claudeRoot,
  codexRoot,
  copilotCliStore,
  cursorRoot,
  opencodeDbPath,
  piRoot,
  vscodeWorkspaceStorageRoots,
} from "./roots";
import { HarvestRun, type HarvestSkipped, type HarvestSource } from "./run";
import { harvestClaude } from "./sources/claude";
import { harvestCodex } from "./sources/codex";
import { harvestCopilot } from "./sources/copilot";
import { harvestCopilotCli } from "./sources/copilot-cli";
import { harvestCursor } from "./sources/cursor";
import { harvestOpencode } from "./sources/opencode";
import { harvestPi } from "./sources/pi";

export type { HarvestOptions } from "./options";
export type { HarvestSkipped, HarvestSource } from "./run";
export { CURSOR_REPLAY_SENTINEL } from "./sources/cursor";
export interface HarvestResult {
  /** Kept sessions, newest first, at most `limit`. */
  digests: SessionDigest[];
  /** The source the digests came from (`auto` resolves to codex or claude). */
  source: HarvestSource;
  skipped: HarvestSkipped;
  /** What the caller should know: missing sources, snapshots taken, sessions rejected and why, the cap. */
  notes: string[];
}

async function readSource(run: HarvestRun, source: HarvestSource): Promise<void> {
  const o = run.opts;
  switch (source) {
    case "claude":
      return harvestClaude(run, claudeRoot(o));
    case "codex":
      return harvestCodex(run, codexRoot(o));
    case "copilot":
      return harvestCopilot(run, vscodeWorkspaceStorageRoots(o));
    case "copilot_cli":
      return harvestCopilotCli(run, copilotCliStore(o));
    case "cursor":
      return harvestCursor(run, cursorRoot(o));
    case "pi":
      return harvestPi(run, piRoot(o));
    case "opencode": {
      const db = opencodeDbPath(o);
      if (db === null) run.note("OpenCode keeps its sessions in memory (OPENCODE_DB=:memory:): nothing to read");
      else await harvestOpencode(run, db);
      return;
    }
  }
}

/**
 * Reads the sessions of `opts.source` that match the scope and the `since` bound, newest first, up to
 * `limit`. `auto` reads Codex and falls back to Claude Code when Codex has no matching session.
 * Throws only for invalid options (an INVALID_REQUEST naming the field).
 */
export async function harvestSessions(opts: HarvestOptions): Promise<HarvestResult> {
  const run = new HarvestRun(parseHarvestOptions(opts));
  let source: HarvestSource = run.opts.source === "auto" ? "codex" : run.opts.source;
  await readSource(run, source);
  if (run.opts.source === "auto" && run.digests.length === 0) {
    run.note("auto: no matching Codex session, reading Claude Code");
    source = "claude";
    await readSource(run, source);
  }
  return { digests: run.digests, source, skipped: run.skipped, notes: run.notes };
}

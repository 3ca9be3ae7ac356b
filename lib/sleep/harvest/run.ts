/**
 * One harvest in progress: the resolved options, the filters every source shares, the kept digests and
 * the counts of what was dropped and why. Sources feed candidate digests to `admit`, which applies the
 * common filters in one order, so every source skips the same things for the same reasons.
 */
import { SessionDigestSchema, type SessionDigest } from "../session-digest";
import { isAgentSession, isHeadlessSession, makeTextFilters, type TextFilters } from "./filters";
import type { ResolvedHarvestOptions } from "./options";
import { endedBefore, inScope, makeSinceBound, pathRules, type PathRules, type SinceBound } from "./scope";

/** Why sessions, files, lines or prompts were left out. */
export interface HarvestSkipped {
  /** JSONL lines (and database rows) that are not valid JSON objects. */
  corruptLines: number;
  /** Whole sessions rejected as malformed (a Pi tree with a broken graph, an unknown Pi version). */
  corruptSessions: number;
  /** Transcript files that could not be read. */
  unreadable: number;
  /** Sessions with no user prompt left once meta prompts were dropped. */
  empty: number;
  /** User messages dropped as meta prompts (slash commands, wrappers, notices). */
  meta: number;
  /** The engine's own headless calls. */
  headless: number;
  /** Sub-agent transcripts (Claude's subagents/ and agent-*.jsonl) and sessions other tools' sub-agents opened. */
  subagent: number;
  /** Sessions SkillOpt-Sleep itself replayed through an agent (Cursor sentinel, OpenCode replay agent). */
  ownReplays: number;
  /** VS Code chat requests of other participants or started by the system. */
  foreignRequests: number;
  /** Sessions whose project is unknown where the source needs one to scope them. */
  noProject: number;
  outOfScope: number;
  /** Sessions that ended before the `since` bound (including files not opened because they are older). */
  beforeSince: number;
}

export type HarvestSource = SessionDigest["source"];

export class HarvestRun {
  readonly rules: PathRules;
  readonly filters: TextFilters;
  readonly since: SinceBound;
  readonly digests: SessionDigest[] = [];
  readonly notes: string[] = [];
  readonly skipped: HarvestSkipped = {
    corruptLines: 0,
    corruptSessions: 0,
    unreadable: 0,
    empty: 0,
    meta: 0,
    headless: 0,
    subagent: 0,
    ownReplays: 0,
    foreignRequests: 0,
    noProject: 0,
    outOfScope: 0,
    beforeSince: 0,
  };

  constructor(readonly opts: ResolvedHarvestOptions) {
    this.rules = pathRules(opts.platform);
    this.filters = makeTextFilters(opts);
    this.since = makeSinceBound(opts.since, opts.clock, this.rules);
  }

  /** The session cap is reached: sources stop reading. */
  get full(): boolean {
    return this.opts.limit > 0 && this.digests.length >= this.opts.limit;
  }

  note(text: string): void {
    this.notes.push(text);
  }

  /** The project filter alone, for sources that can scope a session before reading it. */
  inScope(project: string): boolean {
    return inScope(project, this.opts.scope, this.rules);
  }

  /** A file modified before every applicable bound cannot hold a session that ended after it. */
  olderThanSince(mtimeMs: number): boolean {
    return this.since.lowest !== null && mtimeMs < this.since.lowest;
  }

  /**
   * Keeps `digest` unless a shared filter drops it (counted under its reason). `needsProject`: the
   * source cannot scope a session without one (VS Code, Copilot CLI), so such sessions never pass.
   * `scoped`: the source already chose what to read by scope (Cursor's project folders).
   */
  admit(digest: SessionDigest | null, o: { needsProject?: boolean; scoped?: boolean } = {}): boolean {
    if (!digest || digest.userPrompts.length === 0) return this.skip("empty");
    if (isHeadlessSession(digest, this.filters)) return this.skip("headless");
    if (isAgentSession(digest.userPrompts, this.filters)) return this.skip("subagent");
    if (o.needsProject && !digest.project) return this.skip("noProject");
    if (!o.scoped && !this.inScope(digest.project)) return this.skip("outOfScope");
    if (endedBefore(digest.endedAt, this.since.boundFor(digest.project))) return this.skip("beforeSince");
    this.digests.push(SessionDigestSchema.parse(digest));
    if (this.full) this.note(`session cap of ${this.opts.limit} reached; older sessions were not read`);
    return true;
  }

  skip(reason: keyof HarvestSkipped, n = 1): false {
    this.skipped[reason] += n;
    return false;
  }
}

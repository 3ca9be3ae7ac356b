/**
 * Writes a night's staging folder (spec D.8): the proposals, report.json, report.md, diagnostics.json and,
 * last, manifest.json — the publication marker. Until the manifest exists, adopt and status ignore the
 * folder, so a night that fails half-way never looks adoptable. Each file is written atomically.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { SkillProposal } from "../fanout";
import { isSymlink, sha256Hex, writeFileAtomic } from "../fs-safe";
import { snakeKeys } from "../keys";
import type { SleepReport } from "../types";
import { MANIFEST_SCHEMA, MANIFEST_VERSION, type Manifest, type ManagedRow, type SkillRow } from "./manifest";
import { NIGHT_DIR, publishLatest, StagingError } from "./root";

/** A managed document's proposal with the live file it was derived from, pinned at the start of the night. */
export interface ManagedProposal {
  proposed: string;
  livePath: string;
  liveRealpath: string;
  /** "" when the live file did not exist. */
  liveSha256: string;
}

export interface WriteStagingOptions {
  /** A folder reserved by `reserveStagingDir`. */
  dir: string;
  report: SleepReport;
  reportMd: string;
  diagnostics: Record<string, unknown>;
  liveSkillPath: string;
  liveMemoryPath: string;
  skill: ManagedProposal | null;
  memory: ManagedProposal | null;
  skillProposals: readonly SkillProposal[];
  skillRoots: readonly string[];
}

export function proposalFileName(skillName: string): string {
  return `proposed_SKILL.${skillName}.md`;
}

function managedRow(file: ManagedRow["proposed_file"], p: ManagedProposal): ManagedRow {
  return {
    proposed_file: file,
    sha256: sha256Hex(p.proposed),
    live_path: p.livePath,
    live_realpath: p.liveRealpath,
    live_sha256: p.liveSha256,
  };
}

function checkReserved(dir: string): void {
  if (!NIGHT_DIR.test(basename(dir)) || basename(dirname(dir)) !== "staging" || isSymlink(dir)) {
    throw new StagingError(`staging folder is not a reserved night folder: ${dir}`);
  }
}

/** Writes every artifact, the manifest last, then publishes the night as the latest. Returns the folder. */
export function writeStaging(o: WriteStagingOptions): string {
  checkReserved(o.dir);
  const rows: SkillRow[] = o.skillProposals.map((p) => ({
    skill_name: p.skillName,
    proposed_file: proposalFileName(p.skillName),
    sha256: sha256Hex(p.proposedSkill),
    live_skill_path: p.livePath,
    live_realpath: realpathSync(p.livePath),
    live_sha256: p.liveSha256,
  }));
  if (o.skill && rows.some((r) => r.live_realpath === o.skill!.liveRealpath)) {
    throw new StagingError(`the managed and a per-skill proposal target the same live file: ${o.skill.liveRealpath}`);
  }
  const manifest: Manifest = {
    schema: MANIFEST_SCHEMA,
    schema_version: MANIFEST_VERSION,
    live_skill_path: o.liveSkillPath,
    live_memory_path: o.liveMemoryPath,
    has_skill: false,
    has_memory: false,
    has_managed_skill: o.skill !== null,
    has_managed_memory: o.memory !== null,
    accepted: o.report.accepted,
  };
  if (rows.length > 0) {
    manifest.skills = rows;
    manifest.skill_roots = [...new Set(o.skillRoots)];
  }
  if (o.skill || o.memory) {
    manifest.legacy = {};
    if (o.skill) manifest.legacy.skill = managedRow("proposed_SKILL.md", o.skill);
    if (o.memory) manifest.legacy.memory = managedRow("proposed_CLAUDE.md", o.memory);
  }
  const artifacts: Array<[string, string]> = o.skillProposals.map((p) => [
    proposalFileName(p.skillName),
    p.proposedSkill,
  ]);
  if (o.skill) artifacts.push(["proposed_SKILL.md", o.skill.proposed]);
  if (o.memory) artifacts.push(["proposed_CLAUDE.md", o.memory.proposed]);
  artifacts.push(["report.json", `${JSON.stringify(snakeKeys(o.report), null, 2)}\n`]);
  artifacts.push(["report.md", o.reportMd]);
  artifacts.push(["diagnostics.json", `${JSON.stringify(snakeKeys(o.diagnostics), null, 2)}\n`]);
  artifacts.push(["manifest.json", `${JSON.stringify(manifest, null, 2)}\n`]);
  for (const [name, text] of artifacts) {
    const path = join(o.dir, name);
    if (isSymlink(path)) throw new StagingError(`refusing to write through a symbolic link: ${path}`);
    writeFileAtomic(path, text);
  }
  publishLatest(o.dir);
  return o.dir;
}

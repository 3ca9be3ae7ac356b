/**
 * `manifest.json`, the publication marker of a staged night (spec D.8), and its receipts. Every proposal
 * is pinned: its own sha256, the live file's path, real path and sha256 at the start of the night. The
 * top-level `has_skill` / `has_memory` stay false so that an older runtime, which adopted on those flags
 * without any pin, refuses a new manifest instead of trusting it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { isSymlink } from "../fs-safe";
import { StagingError } from "./root";

export const MANIFEST_SCHEMA = "skillopt-sleep-staging";
export const MANIFEST_VERSION = 2;

const sha = z.string().regex(/^[0-9a-f]{64}$/);
/** "" when the live file did not exist at the start of the night. */
const liveSha = z.union([sha, z.literal("")]);

export const ManagedRowSchema = z.object({
  proposed_file: z.enum(["proposed_SKILL.md", "proposed_CLAUDE.md"]),
  sha256: sha,
  live_path: z.string().min(1),
  live_realpath: z.string().min(1),
  live_sha256: liveSha,
});
export type ManagedRow = z.infer<typeof ManagedRowSchema>;

export const SkillRowSchema = z.object({
  skill_name: z.string().min(1),
  proposed_file: z.string().regex(/^proposed_SKILL\.[^/\\]+\.md$/),
  sha256: sha,
  live_skill_path: z.string().min(1),
  live_realpath: z.string().min(1),
  live_sha256: liveSha,
});
export type SkillRow = z.infer<typeof SkillRowSchema>;

export const ManifestSchema = z.object({
  schema: z.literal(MANIFEST_SCHEMA),
  schema_version: z.literal(MANIFEST_VERSION),
  live_skill_path: z.string(),
  live_memory_path: z.string(),
  has_skill: z.literal(false),
  has_memory: z.literal(false),
  has_managed_skill: z.boolean(),
  has_managed_memory: z.boolean(),
  accepted: z.boolean(),
  skills: z.array(SkillRowSchema).optional(),
  skill_roots: z.array(z.string()).optional(),
  legacy: z.object({ skill: ManagedRowSchema.optional(), memory: ManagedRowSchema.optional() }).optional(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export function readManifest(stagingDir: string): Manifest {
  const path = join(stagingDir, "manifest.json");
  if (isSymlink(path)) throw new StagingError(`${path}: the manifest must not be a symbolic link`);
  if (!existsSync(path))
    throw new StagingError(`${stagingDir}: no manifest.json (the night was not staged, or is still being written)`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new StagingError(`${path}: cannot read the manifest (${(err as Error).message})`);
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StagingError(`${path}: ${issue.path.join(".") || "manifest"}: ${issue.message}; discard and restage`);
  }
  const m = parsed.data;
  if (
    m.has_managed_skill !== (m.legacy?.skill !== undefined) ||
    m.has_managed_memory !== (m.legacy?.memory !== undefined)
  ) {
    throw new StagingError(`${path}: managed flags and pinned rows disagree; discard and restage`);
  }
  return m;
}

export const ReceiptSchema = z.object({
  target: z.string(),
  live_path: z.string(),
  sha256_before: liveSha,
  sha256_after: sha,
  backup_path: z.string(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

export const MANAGED_RECEIPTS = "adopted_legacy.json";
export const SKILL_RECEIPTS = "adopted_skills.json";

export function readReceipts(stagingDir: string, file: string): Receipt[] {
  const path = join(stagingDir, file);
  if (!existsSync(path)) return [];
  if (isSymlink(path)) throw new StagingError(`${path}: receipts must not be a symbolic link`);
  const parsed = z.array(ReceiptSchema).safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new StagingError(`${path}: invalid adoption receipts`);
  return parsed.data;
}

/** Skill rows not adopted yet. */
export function pendingSkillRows(stagingDir: string, m: Manifest = readManifest(stagingDir)): SkillRow[] {
  const done = new Set(readReceipts(stagingDir, SKILL_RECEIPTS).map((r) => r.target));
  return (m.skills ?? []).filter((r) => !done.has(r.skill_name));
}

/** True when the night holds a managed proposal (skill or memory) not adopted yet. */
export function hasPendingManaged(stagingDir: string, m: Manifest = readManifest(stagingDir)): boolean {
  const done = new Set(readReceipts(stagingDir, MANAGED_RECEIPTS).map((r) => r.target));
  return (m.has_managed_skill && !done.has("skill")) || (m.has_managed_memory && !done.has("memory"));
}

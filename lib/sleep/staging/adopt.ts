/**
 * Adopt (spec D.8): the only step that changes a live file. Each staged proposal is checked against its
 * pins — the proposal's own sha256, and the live file's sha256 and real path recorded at the start of the
 * night (a live file that changed since is refused: "discard and restage"); symbolic links are refused.
 * Then, under per-target lock files: a transaction file is written, the originals are backed up to
 * `<staging>/backup/`, the live files are replaced atomically, receipts are recorded, and the transaction
 * file is removed. An adoption interrupted half-way is completed by the next adopt of that night. Each
 * target can be adopted once per night.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { z } from "zod";
import { isSymlink, lexists, resolvedLocation, sha256Hex, writeFileAtomic, writeFileExclusive } from "../fs-safe";
import { MANAGED_RECEIPTS, readManifest, readReceipts, SKILL_RECEIPTS, type Receipt } from "./manifest";
import { StagingError } from "./root";

interface Target {
  key: string;
  livePath: string;
  liveRealpath: string;
  expectedBasename: string;
  proposedFile: string;
  proposedSha: string;
  /** "" when the live file did not exist at staging time. */
  liveSha: string;
  backupPath: string;
}

const TRANSACTION = ".adopt-transaction.json";
const TransactionSchema = z.object({
  receipts: z.enum([MANAGED_RECEIPTS, SKILL_RECEIPTS]),
  targets: z.array(
    z.object({
      key: z.string(),
      live_path: z.string(),
      proposed_file: z.string(),
      sha256_before: z.string(),
      sha256_after: z.string(),
      backup_path: z.string(),
    }),
  ),
});

function currentSha(path: string): string {
  return existsSync(path) ? sha256Hex(readFileSync(path)) : "";
}

function checkTarget(t: Target): Buffer {
  const label = `${t.key} (${t.livePath})`;
  if (!isAbsolute(t.livePath) || basename(t.livePath) !== t.expectedBasename)
    throw new StagingError(`${label}: the staged live path is unsafe`);
  if (isSymlink(t.livePath))
    throw new StagingError(`${label}: the live file is a symbolic link; refusing to write through it`);
  if (lexists(t.livePath) && !statSync(t.livePath).isFile())
    throw new StagingError(`${label}: the live path is not a regular file`);
  if (resolvedLocation(t.livePath) !== t.liveRealpath)
    throw new StagingError(
      `${label}: the live path now resolves elsewhere (a symbolic link in its folders?); discard and restage`,
    );
  if (isSymlink(t.proposedFile) || !existsSync(t.proposedFile))
    throw new StagingError(`${label}: the staged proposal is missing or a symbolic link`);
  const proposed = readFileSync(t.proposedFile);
  if (sha256Hex(proposed) !== t.proposedSha)
    throw new StagingError(`${label}: the staged proposal does not match its sha256; discard and restage`);
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(proposed);
  } catch {
    throw new StagingError(`${label}: the staged proposal is not valid UTF-8`);
  }
  if (t.expectedBasename === "SKILL.md" && proposed.toString("utf8").trim() === "")
    throw new StagingError(`${label}: the staged skill is empty`);
  if (currentSha(t.livePath) !== t.liveSha)
    throw new StagingError(`${label}: the live file changed since staging; discard and restage`);
  if (t.backupPath && lexists(t.backupPath))
    throw new StagingError(`${label}: a backup already exists at ${t.backupPath}`);
  return proposed;
}

/** Exclusive lock files, one per live target, in the project's `.skillopt-sleep/locks/`; released by the returned function. */
function lockTargets(stagingDir: string, targets: readonly Target[]): () => void {
  const dir = join(stagingDir, "..", "..", "locks");
  mkdirSync(dir, { recursive: true });
  const taken: string[] = [];
  const release = () => taken.forEach((p) => rmSync(p, { force: true }));
  for (const t of targets) {
    const lock = join(dir, `${sha256Hex(t.liveRealpath).slice(0, 24)}.lock`);
    try {
      writeFileExclusive(lock, `${t.livePath}\n`);
      taken.push(lock);
    } catch (err) {
      release();
      if ((err as NodeJS.ErrnoException).code === "EEXIST")
        throw new StagingError(`${t.livePath}: another adoption holds ${lock}; remove it if no adoption is running`);
      throw err;
    }
  }
  return release;
}

function appendReceipts(stagingDir: string, file: string, add: Receipt[]): void {
  const existing = readReceipts(stagingDir, file);
  const have = new Set(existing.map((r) => r.target));
  writeFileAtomic(
    join(stagingDir, file),
    `${JSON.stringify([...existing, ...add.filter((r) => !have.has(r.target))], null, 2)}\n`,
  );
}

const receiptOf = (t: {
  key: string;
  livePath: string;
  liveSha: string;
  proposedSha: string;
  backupPath: string;
}): Receipt => ({
  target: t.key,
  live_path: t.livePath,
  sha256_before: t.liveSha,
  sha256_after: t.proposedSha,
  backup_path: t.backupPath,
});

/** Completes an interrupted adoption of this night, if there is one. */
export function recoverAdoption(stagingDir: string): void {
  const path = join(stagingDir, TRANSACTION);
  if (!existsSync(path)) return;
  const tx = TransactionSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  for (const t of tx.targets) {
    const now = currentSha(t.live_path);
    if (now === t.sha256_after) continue;
    if (now !== t.sha256_before)
      throw new StagingError(
        `${t.live_path} changed during an interrupted adoption; its original is kept at ${t.backup_path || "(none: it did not exist)"}`,
      );
    const proposed = readFileSync(t.proposed_file);
    if (sha256Hex(proposed) !== t.sha256_after)
      throw new StagingError(`${t.proposed_file}: does not match its sha256; cannot complete the interrupted adoption`);
    if (t.backup_path && !existsSync(t.backup_path)) {
      mkdirSync(dirname(t.backup_path), { recursive: true });
      copyFileSync(t.live_path, t.backup_path);
    }
    writeFileAtomic(t.live_path, proposed);
  }
  appendReceipts(
    stagingDir,
    tx.receipts,
    tx.targets.map((t) =>
      receiptOf({
        key: t.key,
        livePath: t.live_path,
        liveSha: t.sha256_before,
        proposedSha: t.sha256_after,
        backupPath: t.backup_path,
      }),
    ),
  );
  rmSync(path);
}

function execute(stagingDir: string, receiptsFile: string, targets: readonly Target[]): string[] {
  const proposals = targets.map(checkTarget);
  const release = lockTargets(stagingDir, targets);
  try {
    const tx = {
      receipts: receiptsFile,
      targets: targets.map((t) => ({
        key: t.key,
        live_path: t.livePath,
        proposed_file: t.proposedFile,
        sha256_before: t.liveSha,
        sha256_after: t.proposedSha,
        backup_path: t.backupPath,
      })),
    };
    // Re-check under the locks: another adoption may have finished between the first check and the lock.
    targets.forEach(checkTarget);
    writeFileExclusive(join(stagingDir, TRANSACTION), JSON.stringify(tx, null, 2));
    targets.forEach((t, i) => {
      if (t.backupPath) {
        mkdirSync(dirname(t.backupPath), { recursive: true });
        copyFileSync(t.livePath, t.backupPath);
      }
      writeFileAtomic(t.livePath, proposals[i]!);
    });
    appendReceipts(stagingDir, receiptsFile, targets.map(receiptOf));
    rmSync(join(stagingDir, TRANSACTION));
  } finally {
    release();
  }
  return targets.map((t) => t.livePath);
}

function canonicalStaging(stagingDir: string): string {
  if (isSymlink(stagingDir)) throw new StagingError(`${stagingDir}: the staging folder is a symbolic link`);
  if (!existsSync(stagingDir) || !statSync(stagingDir).isDirectory())
    throw new StagingError(`${stagingDir}: no such staging folder`);
  return realpathSync(stagingDir);
}

/** Adopts the managed pair (skill and/or memory) of a night; returns the live paths written ([] when none was staged). */
export function adoptManaged(stagingDir: string): string[] {
  const dir = canonicalStaging(stagingDir);
  recoverAdoption(dir);
  const m = readManifest(dir);
  const done = new Set(readReceipts(dir, MANAGED_RECEIPTS).map((r) => r.target));
  const targets: Target[] = [];
  for (const [key, row, base] of [
    ["skill", m.legacy?.skill, "SKILL.md"],
    ["memory", m.legacy?.memory, "CLAUDE.md"],
  ] as const) {
    if (!row) continue;
    if (done.has(key)) throw new StagingError(`the managed ${key} of this night was already adopted`);
    targets.push({
      key,
      livePath: row.live_path,
      liveRealpath: row.live_realpath,
      expectedBasename: base,
      proposedFile: join(dir, row.proposed_file),
      proposedSha: row.sha256,
      liveSha: row.live_sha256,
      backupPath: row.live_sha256 ? join(dir, "backup", base) : "",
    });
  }
  return targets.length > 0 ? execute(dir, MANAGED_RECEIPTS, targets) : [];
}

/** Adopts the named per-skill proposals of a fan-out night; every name must be staged and not yet adopted. */
export function adoptSkills(
  stagingDir: string,
  names: readonly string[],
): Array<{ skillName: string; liveSkillPath: string; backupPath: string }> {
  const dir = canonicalStaging(stagingDir);
  recoverAdoption(dir);
  const m = readManifest(dir);
  const rows = new Map((m.skills ?? []).map((r) => [r.skill_name, r]));
  const done = new Set(readReceipts(dir, SKILL_RECEIPTS).map((r) => r.target));
  const roots = (m.skill_roots ?? []).filter((r) => existsSync(r)).map((r) => realpathSync(r));
  const targets: Target[] = [];
  for (const name of [...new Set(names)]) {
    const row = rows.get(name);
    if (!row)
      throw new StagingError(
        `no staged proposal for skill '${name}'; staged: ${[...rows.keys()].join(", ") || "(none)"}`,
      );
    if (done.has(name)) throw new StagingError(`skill '${name}' was already adopted from this night`);
    const inRoot = roots.some((r) => {
      const rel = relative(r, row.live_realpath);
      return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
    });
    if (!inRoot) throw new StagingError(`skill '${name}': its live file is no longer inside a recorded skill root`);
    targets.push({
      key: name,
      livePath: row.live_skill_path,
      liveRealpath: row.live_realpath,
      expectedBasename: "SKILL.md",
      proposedFile: join(dir, row.proposed_file),
      proposedSha: row.sha256,
      liveSha: row.live_sha256,
      backupPath: row.live_sha256 ? join(dir, "backup", "skills", name, "SKILL.md") : "",
    });
  }
  if (targets.length > 0) execute(dir, SKILL_RECEIPTS, targets);
  return targets.map((t) => ({ skillName: t.key, liveSkillPath: t.livePath, backupPath: t.backupPath }));
}

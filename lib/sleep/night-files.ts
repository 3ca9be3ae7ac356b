/**
 * What the dashboard shows of a staged night, read from its staging folder: each proposal beside the live
 * file it would replace, whether that live file changed since the night started (adopt would refuse),
 * and whether it was adopted already. Read-only.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "./fs-safe";
import { MANAGED_RECEIPTS, readManifest, readReceipts, SKILL_RECEIPTS, type Manifest } from "./staging/manifest";

export interface NightProposal {
  /** skill | memory | the per-skill name. */
  label: string;
  kind: "managed" | "skill";
  livePath: string;
  liveText: string;
  proposedText: string;
  liveChanged: boolean;
  adopted: boolean;
}

function readLive(path: string): { text: string; sha: string } {
  try {
    const bytes = readFileSync(path);
    return { text: bytes.toString("utf8"), sha: sha256Hex(bytes) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { text: "", sha: "" };
    throw err;
  }
}

function proposal(
  dir: string,
  o: { label: string; kind: NightProposal["kind"]; file: string; livePath: string; liveSha: string; adopted: boolean },
): NightProposal {
  const live = readLive(o.livePath);
  return {
    label: o.label,
    kind: o.kind,
    livePath: o.livePath,
    liveText: live.text,
    proposedText: readFileSync(join(dir, o.file), "utf8"),
    // Once adopted, the live file holds the proposal: that is not a change to warn about.
    liveChanged: !o.adopted && live.sha !== o.liveSha,
    adopted: o.adopted,
  };
}

/** The proposals of a staged night (throws a StagingError naming the file when the folder is unreadable). */
export function readNightProposals(stagingDir: string): { manifest: Manifest; proposals: NightProposal[] } {
  const m = readManifest(stagingDir);
  const managedDone = new Set(readReceipts(stagingDir, MANAGED_RECEIPTS).map((r) => r.target));
  const skillsDone = new Set(readReceipts(stagingDir, SKILL_RECEIPTS).map((r) => r.target));
  const out: NightProposal[] = [];
  for (const target of ["skill", "memory"] as const) {
    const row = m.legacy?.[target];
    if (row)
      out.push(
        proposal(stagingDir, {
          label: target,
          kind: "managed",
          file: row.proposed_file,
          livePath: row.live_path,
          liveSha: row.live_sha256,
          adopted: managedDone.has(target),
        }),
      );
  }
  for (const row of m.skills ?? []) {
    out.push(
      proposal(stagingDir, {
        label: row.skill_name,
        kind: "skill",
        file: row.proposed_file,
        livePath: row.live_skill_path,
        liveSha: row.live_sha256,
        adopted: skillsDone.has(row.skill_name),
      }),
    );
  }
  return { manifest: m, proposals: out };
}

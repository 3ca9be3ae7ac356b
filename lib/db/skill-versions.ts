/**
 * The version browser's reads: the list of every version with its parent (lib/contracts/skill-versions)
 * and one version's text by reference. Checkpoint snapshots give the skill after a step exactly (appendix
 * notes included); without them (CLI runs) the chain of stored versions stands in.
 */
import {
  afterRef,
  buildVersionList,
  parseRef,
  refLabel,
  type ChainInput,
  type VersionContent,
  type VersionsResponse,
} from "../contracts/skill-versions";
import { parseStoredEventsOf } from "../contracts/stored-events";
import { AppError } from "../errors";
import { getDb, type DbTx } from "./client";
import { getRun } from "./runs";
import { stepRecordOf } from "./step-rows";

type Opts = { db?: DbTx };
const pad = (n: number, w: number) => String(n).padStart(w, "0");
const skillKey = (step: number) => `skills/skill_v${pad(step, 4)}.md`;
const epochEndKey = (epoch: number) => `meta_skill/epoch_${pad(epoch, 2)}/epoch_last_step_skill.md`;
const SKILL_KEY = /^skills\/skill_v(\d+)\.md$/;
const EPOCH_END_KEY = /^meta_skill\/epoch_(\d+)\/epoch_last_step_skill\.md$/;

async function metaContents(db: DbTx, runId: string): Promise<Map<number, string>> {
  const events = await db.runEvent.findMany({
    where: { runId, type: "metaSkillUpdated", superseded: false },
    orderBy: { seq: "asc" },
    select: { seq: true, type: true, payload: true },
  });
  const out = new Map<number, string>();
  for (const e of parseStoredEventsOf("metaSkillUpdated", events)) {
    if (e.content?.trim()) out.set(e.epoch, e.content);
  }
  return out;
}

async function chainInput(db: DbTx, runId: string): Promise<ChainInput> {
  const [versions, steps, keys, metas] = await Promise.all([
    db.skillVersion.findMany({ where: { runId }, orderBy: [{ step: "asc" }, { createdAt: "asc" }] }),
    db.step.findMany({ where: { runId }, select: { step: true, action: true, recordJson: true } }),
    db.checkpoint.findMany({
      where: {
        runId,
        OR: [{ key: { startsWith: "skills/skill_v" } }, { key: { endsWith: "/epoch_last_step_skill.md" } }],
      },
      select: { key: true },
    }),
    metaContents(db, runId),
  ]);
  const stored = new Set<string>();
  for (const { key } of keys) {
    const s = SKILL_KEY.exec(key);
    if (s) stored.add(`after:${Number(s[1])}`);
    const e = EPOCH_END_KEY.exec(key);
    if (e) stored.add(`epoch_end:${Number(e[1])}`);
  }
  const appendixSteps = new Map<number, number>();
  for (const s of steps) {
    const r = stepRecordOf({ step: s.step, record: JSON.parse(s.recordJson) as unknown });
    const added = r.n_appendix_notes_added ?? 0;
    if (added > 0 || (r.n_appendix_notes_consolidated ?? 0) > 0) appendixSteps.set(s.step, added);
  }
  return {
    versions: versions.map((v) => ({
      kind: v.kind,
      step: v.step,
      epoch: v.epoch,
      status: v.status,
      contentHash: v.contentHash,
      chars: v.content.length,
      selectionHard: v.selectionHard,
      gateScore: v.gateScore,
    })),
    actions: new Map(steps.map((s) => [s.step, s.action])),
    appendixSteps,
    stored,
    metaEpochs: [...metas.keys()].sort((a, b) => a - b),
  };
}

export async function listSkillVersions(runId: string, { db = getDb() }: Opts = {}): Promise<VersionsResponse> {
  await getRun(runId, { db });
  return { versions: buildVersionList(await chainInput(db, runId)) };
}

const notFound = (ref: string) =>
  new AppError("NOT_FOUND", `version ${ref} not found`, {
    userMessage: `This run has no ${refLabel(ref)}.`,
    field: "ref",
  });

async function storedVersion(db: DbTx, runId: string, kind: string, step: number): Promise<string | null> {
  const v = await db.skillVersion.findUnique({
    where: { runId_kind_step: { runId, kind, step } },
    select: { content: true },
  });
  return v?.content ?? null;
}

async function checkpointText(db: DbTx, runId: string, key: string): Promise<string | null> {
  const cp = await db.checkpoint.findUnique({ where: { runId_key: { runId, key } }, select: { value: true } });
  return cp?.value ?? null;
}

/** One version's text; `ref` is validated (422 naming `ref`), an unknown version is a 404. */
export async function getSkillVersion(
  runId: string,
  ref: string,
  { db = getDb() }: Opts = {},
): Promise<VersionContent> {
  const run = await getRun(runId, { db });
  const p = parseRef(ref);
  const found = (content: string | null, label = refLabel(ref)): VersionContent => {
    if (content === null) throw notFound(ref);
    return { ref, label, content };
  };
  switch (p.kind) {
    case "seed":
      return found((await storedVersion(db, runId, "seed", 0)) ?? run.seedSkill);
    case "final":
      return found(await storedVersion(db, runId, "final", 0));
    case "candidate":
    case "slow_update":
      return found(await storedVersion(db, runId, p.kind, p.n));
    case "epoch_end":
      return found(await checkpointText(db, runId, epochEndKey(p.n)));
    case "meta":
      return found((await metaContents(db, runId)).get(p.n) ?? null);
    case "after": {
      if (p.n === 0) return found((await storedVersion(db, runId, "seed", 0)) ?? run.seedSkill);
      const text = await checkpointText(db, runId, skillKey(p.n));
      if (text !== null) return found(text);
      if (p.n > run.stepsDone) throw notFound(ref);
      // No snapshot (a CLI run keeps its checkpoints in its folder): the chain's version after that step.
      const chain = afterRef(await chainInput(db, runId), p.n);
      const v = await getSkillVersion(runId, chain, { db });
      return { ref, label: `${refLabel(ref)} (${v.label})`, content: v.content };
    }
  }
}

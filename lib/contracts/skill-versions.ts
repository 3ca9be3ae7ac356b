/**
 * The version browser's model (pure): every skill a run produced — seed, candidates, appendix flushes,
 * slow updates, meta skills, final — each with a reference the content route resolves and the reference
 * of what it was made from, so any version opens as a diff against its parent.
 *
 * References: `seed`, `final`, `candidate:N`, `slow_update:S` (the skill after the epoch boundary at
 * step S), `after:N` (the current skill after step N, appendix notes included), `epoch_end:E` (the skill
 * an epoch ended with, before its boundary), `meta:E` (the meta skill written at the end of epoch E).
 */
import { z } from "zod";
import { ADOPTING_ACTIONS } from "./item-history";

export type VersionKind = "seed" | "candidate" | "appendix_flush" | "slow_update" | "meta_skill" | "final";

export interface VersionEntry {
  ref: string;
  kind: VersionKind;
  label: string;
  step: number;
  epoch: number;
  status: string | null;
  hash: string | null;
  chars: number | null;
  selectionHard: number | null;
  gateScore: number | null;
  /** What this version was made from (null: nothing, the diff is against an empty document). */
  parentRef: string | null;
  parentLabel: string | null;
}

export interface VersionsResponse {
  versions: VersionEntry[];
}

export interface VersionContent {
  ref: string;
  label: string;
  content: string;
}

export const VersionRefSchema = z
  .string()
  .regex(
    /^(seed|final|(candidate|slow_update|after|epoch_end|meta):\d{1,7})$/,
    "expected seed, final, candidate:N, slow_update:N, after:N, epoch_end:N or meta:N",
  );

export type ParsedRef =
  { kind: "seed" | "final" } | { kind: "candidate" | "slow_update" | "after" | "epoch_end" | "meta"; n: number };

export function parseRef(ref: string): ParsedRef {
  const v = VersionRefSchema.parse(ref);
  if (v === "seed" || v === "final") return { kind: v };
  const [kind, n] = v.split(":") as [Exclude<ParsedRef["kind"], "seed" | "final">, string];
  return { kind, n: Number(n) };
}

export function refLabel(ref: string): string {
  const p = parseRef(ref);
  switch (p.kind) {
    case "seed":
      return "seed skill";
    case "final":
      return "final (best) skill";
    case "candidate":
      return `candidate of step ${p.n}`;
    case "slow_update":
      return `after the slow update at step ${p.n}`;
    case "after":
      return p.n === 0 ? "seed skill" : `current skill after step ${p.n}`;
    case "epoch_end":
      return `end of epoch ${p.n}, before its boundary`;
    case "meta":
      return `meta skill of epoch ${p.n}`;
  }
}

/** The stored skill versions (SkillVersion rows), as the chain's input. */
export interface StoredVersion {
  kind: string;
  step: number;
  epoch: number;
  status: string | null;
  contentHash: string;
  chars: number;
  selectionHard: number | null;
  gateScore: number | null;
}

export interface ChainInput {
  versions: readonly StoredVersion[];
  /** Gate decisions by step. */
  actions: ReadonlyMap<number, string>;
  /** Steps whose record says appendix notes were written into the current skill, with the count. */
  appendixSteps: ReadonlyMap<number, number>;
  /** Checkpoint keys that exist: `after:N` and `epoch_end:E` refs. */
  stored: ReadonlySet<string>;
  /** Epochs whose meta skill has content, ascending. */
  metaEpochs: readonly number[];
}

/**
 * The reference holding the current skill after `step` without checkpoints: the latest accepted candidate
 * or slow update at or before it (a slow update at step S applies after step S), else the seed.
 */
export function chainRefAt(input: Pick<ChainInput, "versions" | "actions">, step: number, withSlowAt = true): string {
  let best: { step: number; order: number; ref: string } = { step: -1, order: 0, ref: "seed" };
  for (const v of input.versions) {
    if (v.step > step) continue;
    const isCand = v.kind === "candidate" && ADOPTING_ACTIONS.has(input.actions.get(v.step) ?? "");
    const isSlow = v.kind === "slow_update" && (withSlowAt || v.step < step);
    if (!isCand && !isSlow) continue;
    const order = isSlow ? 1 : 0;
    if (v.step > best.step || (v.step === best.step && order > best.order))
      best = { step: v.step, order, ref: `${v.kind}:${v.step}` };
  }
  return best.ref;
}

/** The current skill after `step`: its checkpoint when stored, else the chain's version. */
export function afterRef(input: ChainInput, step: number): string {
  if (step <= 0) return "seed";
  return input.stored.has(`after:${step}`) ? `after:${step}` : chainRefAt(input, step);
}

const KIND_ORDER: Record<VersionKind, number> = {
  seed: 0,
  candidate: 1,
  appendix_flush: 2,
  slow_update: 3,
  meta_skill: 4,
  final: 5,
};

/** Every version with its parent, in run order (seed first, final last). */
export function buildVersionList(input: ChainInput): VersionEntry[] {
  const out: VersionEntry[] = [];
  const base = (v: StoredVersion) => ({
    step: v.step,
    epoch: v.epoch,
    status: v.status,
    hash: v.contentHash,
    chars: v.chars,
    selectionHard: v.selectionHard,
    gateScore: v.gateScore,
  });
  const withParent = (parentRef: string | null) => ({
    parentRef,
    parentLabel: parentRef === null ? null : refLabel(parentRef),
  });
  for (const v of input.versions) {
    if (v.kind === "seed")
      out.push({ ref: "seed", kind: "seed", label: "seed skill", ...base(v), ...withParent(null) });
    else if (v.kind === "candidate") {
      const ref = `candidate:${v.step}`;
      out.push({
        ref,
        kind: "candidate",
        label: refLabel(ref),
        ...base(v),
        ...withParent(afterRef(input, v.step - 1)),
      });
    } else if (v.kind === "slow_update") {
      const ref = `slow_update:${v.step}`;
      const end = `epoch_end:${v.epoch}`;
      const parent = input.stored.has(end) ? end : chainRefAt(input, v.step, false);
      out.push({ ref, kind: "slow_update", label: `slow update, epoch ${v.epoch}`, ...base(v), ...withParent(parent) });
    } else if (v.kind === "final") {
      out.push({ ref: "final", kind: "final", label: refLabel("final"), ...base(v), ...withParent(null) });
    }
  }
  for (const [step, notes] of input.appendixSteps) {
    const ref = `after:${step}`;
    if (!input.stored.has(ref)) continue; // overwritten by a slow update, or a CLI run (no checkpoints stored)
    const adopted = ADOPTING_ACTIONS.has(input.actions.get(step) ?? "");
    const parent = adopted ? `candidate:${step}` : afterRef(input, step - 1);
    out.push({
      ref,
      kind: "appendix_flush",
      label: `appendix flush after step ${step} (+${notes} note${notes === 1 ? "" : "s"})`,
      step,
      epoch: out.find((e) => e.step === step)?.epoch ?? 0,
      status: null,
      hash: null,
      chars: null,
      selectionHard: null,
      gateScore: null,
      ...withParent(parent),
    });
  }
  input.metaEpochs.forEach((epoch, i) => {
    const ref = `meta:${epoch}`;
    const prev = i > 0 ? `meta:${input.metaEpochs[i - 1]}` : null;
    out.push({
      ref,
      kind: "meta_skill",
      label: refLabel(ref),
      step: lastStepOfEpoch(input.versions, epoch),
      epoch,
      status: null,
      hash: null,
      chars: null,
      selectionHard: null,
      gateScore: null,
      ...withParent(prev),
    });
  });
  const rank = (e: VersionEntry) => (e.kind === "final" ? Number.MAX_SAFE_INTEGER : e.step);
  return out.sort((a, b) => rank(a) - rank(b) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}

function lastStepOfEpoch(versions: readonly StoredVersion[], epoch: number): number {
  const slow = versions.find((v) => v.kind === "slow_update" && v.epoch === epoch);
  if (slow) return slow.step;
  return Math.max(0, ...versions.filter((v) => v.kind === "candidate" && v.epoch === epoch).map((v) => v.step));
}

/**
 * Longitudinal comparison (spec §10.2): the previous epoch's skill and the current one run on the same
 * sampled train items; each item becomes a pair categorised as improved, regressed, persistent failure
 * or stable success. Rollouts are memoised per folder, so rebuilding the pairs never re-pays a call.
 */
import type { RunContext } from "./context";
import { rolloutItems } from "./phases/rollout";
import { pyShuffled } from "./py-random";
import { computeScore, pyTruthy } from "./scoring";
import { buildTrainBatch } from "./split-plan";
import { renderConversation } from "./trajectory-format";
import type { Item, PairPolicy, Trajectory } from "./types";

export type PairCategory = "improved" | "regressed" | "persistent_fail" | "stable_success";

export interface PairSide {
  hard: number;
  soft: number;
  predicted_answer: string;
  fail_reason: string;
}

export interface Pair {
  id: string;
  task: string;
  category: PairCategory;
  prev: PairSide;
  curr: PairSide;
  prev_trajectory: string;
  curr_trajectory: string;
}

export type SlimPair = Omit<Pair, "prev_trajectory" | "curr_trajectory">;

function side(row: Trajectory | undefined): PairSide {
  return {
    hard: row && pyTruthy(row.hard) ? 1 : 0,
    soft: row?.soft ?? 0,
    predicted_answer: row?.prediction ?? "N/A",
    fail_reason: row?.failReason ?? "",
  };
}

function render(row: Trajectory | undefined): string {
  if (!row) return "(trajectory not available)";
  if (!row.conversation || row.conversation.length === 0) return "(empty trajectory)";
  return renderConversation(row.conversation, { skipNonObjects: true }) || "(empty trajectory)";
}

export function buildPair(item: Item, prev: Trajectory | undefined, curr: Trajectory | undefined): Pair {
  const p = Boolean(prev && pyTruthy(prev.hard));
  const c = Boolean(curr && pyTruthy(curr.hard));
  const category: PairCategory =
    !p && c ? "improved" : p && !c ? "regressed" : !p && !c ? "persistent_fail" : "stable_success";
  const task = [item.question, item.task_description, item.instruction].find((v) => typeof v === "string") as
    string | undefined;
  return {
    id: item.id,
    task: task ?? item.id,
    category,
    prev: side(prev),
    curr: side(curr),
    prev_trajectory: render(prev),
    curr_trajectory: render(curr),
  };
}

export const slim = (pairs: readonly Pair[]): SlimPair[] =>
  pairs.map(({ id, task, category, prev, curr }) => ({ id, task, category, prev, curr }));

const KEEP: Record<PairPolicy, PairCategory[] | null> = {
  mixed: null,
  changed: ["improved", "regressed"],
  unchanged: ["persistent_fail", "stable_success"],
};

function safeId(id: string): string {
  const s = id
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 80);
  return s || "item";
}

export interface PairsResult {
  selected: Pair[];
  all: Pair[];
  /** True when the policy dropped or added pairs (then both lists are saved). */
  changed: boolean;
  /** Hard accuracy of each skill on the sampled items both answered (top-ups excluded). */
  prevHard: number;
  currHard: number;
}

/**
 * Samples `n` train items with seed `seed + 2000·epoch`, rolls both skills out under `dirBase`, builds
 * the pairs and applies the pair policy (with the top-up of the `changed` policy).
 */
export async function longitudinalPairs(
  ctx: RunContext,
  opts: { epoch: number; prevSkill: string; currSkill: string; dirBase: string; train: Item[] },
): Promise<PairsResult> {
  const n = ctx.cfg.optimizer.slow_update_samples;
  const seed = ctx.cfg.train.seed + opts.epoch * 2000;
  const prepare = (items: Item[], s: number) => (ctx.env.prepareBatch ? ctx.env.prepareBatch(items, s) : items);
  const items = prepare(buildTrainBatch(opts.train, n, seed), seed);
  const roll = (skill: string, dir: string, its: Item[], s: number) =>
    rolloutItems(ctx, { dir, items: its, skill, phase: "longitudinal", seed: s });
  // The two skills' rollouts are independent (each item seeded alone): they run at the same time.
  const [prevRows, currRows] = await Promise.all([
    roll(opts.prevSkill, `${opts.dirBase}/rollout_prev`, items, seed),
    roll(opts.currSkill, `${opts.dirBase}/rollout_curr`, items, seed),
  ]);
  const byId = (rows: Trajectory[]) => new Map(rows.map((r) => [r.id, r]));
  const [pm, cm] = [byId(prevRows), byId(currRows)];
  // An item either skill did not answer (error, timeout, truncated) says nothing about the skills: no pair.
  const both = items.filter((it) => pm.get(it.id)?.status === "ok" && cm.get(it.id)?.status === "ok");
  const all = both.map((it) => buildPair(it, pm.get(it.id), cm.get(it.id)));
  const answeredByBoth = (rows: Trajectory[]) =>
    rows.filter((r) => pm.get(r.id)?.status === "ok" && cm.get(r.id)?.status === "ok");
  const scores = {
    prevHard: computeScore(answeredByBoth(prevRows)).hard,
    currHard: computeScore(answeredByBoth(currRows)).hard,
  };
  const keep = KEEP[ctx.plan.pairPolicy];
  if (!keep) return { selected: all, all, changed: false, ...scores };
  const selected = all.filter((p) => keep.includes(p.category));
  if (ctx.plan.pairPolicy === "changed" && selected.length < n) {
    const paired = new Set(items.map((it) => it.id));
    const candidates = pyShuffled(opts.train, seed).filter((it) => !paired.has(it.id));
    for (let i = 0; i < candidates.length && selected.length < n; i++) {
      const s = seed + i + 1;
      // The original builds the top-up env from the raw train item: no per-batch preparation (e.g. no
      // LiveMath choice reshuffle) for top-ups.
      const one = [candidates[i]!];
      const sid = safeId(candidates[i]!.id);
      const [[pr], [cr]] = await Promise.all([
        roll(opts.prevSkill, `${opts.dirBase}/rollout_prev/topup/${sid}`, one, s),
        roll(opts.currSkill, `${opts.dirBase}/rollout_curr/topup/${sid}`, one, s),
      ]);
      if (pr?.status !== "ok" || cr?.status !== "ok") continue;
      const pair = buildPair(one[0]!, pr, cr);
      all.push(pair);
      if (keep.includes(pair.category)) selected.push(pair);
    }
  }
  return { selected: selected.slice(0, n), all, changed: selected.length !== all.length, ...scores };
}

const SECTIONS: Array<{ cat: PairCategory; title: string; trajectories: boolean }> = [
  { cat: "regressed", title: "Regressions (highest priority: passed before, fail now)", trajectories: true },
  { cat: "persistent_fail", title: "Persistent failures (failed in both epochs)", trajectories: true },
  { cat: "improved", title: "Improvements (failed before, pass now)", trajectories: true },
  { cat: "stable_success", title: "Stable successes (passed in both epochs)", trajectories: false },
];

const verdict = (s: PairSide) =>
  `${s.hard ? "PASS" : "FAIL"} (soft ${s.soft.toFixed(2)}) answer: ${s.predicted_answer}`;

/** The comparison text given to the slow-update and meta-skill calls. */
export function formatComparison(pairs: readonly Pair[]): string {
  const count = (c: PairCategory) => pairs.filter((p) => p.category === c).length;
  const out = [
    `Compared tasks: ${pairs.length}; improved: ${count("improved")}; regressed: ${count("regressed")}; ` +
      `persistent failures: ${count("persistent_fail")}; stable successes: ${count("stable_success")}.`,
  ];
  for (const s of SECTIONS) {
    out.push("", `### ${s.title}`);
    const ps = pairs.filter((p) => p.category === s.cat);
    if (ps.length === 0) out.push("(none)");
    for (const p of ps) {
      out.push(`- Task ${p.id}: ${p.task}`, `  previous: ${verdict(p.prev)}`, `  current: ${verdict(p.curr)}`);
      if (p.curr.fail_reason) out.push(`  current failure: ${p.curr.fail_reason}`);
      if (!p.prev.hard && p.prev.fail_reason) out.push(`  previous failure: ${p.prev.fail_reason}`);
      if (s.trajectories) {
        out.push(
          "  previous trajectory:",
          "```",
          p.prev_trajectory,
          "```",
          "  current trajectory:",
          "```",
          p.curr_trajectory,
          "```",
        );
      }
    }
  }
  return out.join("\n");
}

/**
 * Mining (spec D.5): session digests → tasks. The heuristic miner needs no model (one task per session,
 * outcome from the user's feedback); the LLM miner (llm-miner.ts) plugs in through `mine({ llmMiner })`
 * and falls back to the heuristic one when it yields nothing. Then: dedup by id, an optional filter
 * towards the target skill, the cap, and hash-stable split assignment, so a task keeps its split across
 * nights and the held-out set stays fixed.
 */
import { sha256Hex } from "./fs-safe";
import type { SessionDigest } from "./session-digest";
import { makeTask, type Outcome, type TaskRecord } from "./types";

export function clip(text: string, n: number): string {
  const t = text.trim();
  return t.length <= n ? t : `${t.slice(0, n)} …`;
}

/** The one skill a session used, or "" when it used none or several. */
export function sessionSkillHint(d: SessionDigest): string {
  const unique = [...new Set(d.skillsUsed.filter((s) => s !== ""))];
  return unique.length === 1 ? unique[0]! : "";
}

function outcomeOf(d: SessionDigest): Outcome {
  const neg = d.feedbackSignals.some((s) => s.startsWith("neg:"));
  const pos = d.feedbackSignals.some((s) => s.startsWith("pos:"));
  if (pos && !neg) return "success";
  if (neg) return "fail";
  if (d.nUserTurns >= 3) return "mixed";
  return "unknown";
}

/** One task per session whose first prompt has at least 8 characters; the first prompt is the intent. */
export function heuristicMine(digests: readonly SessionDigest[], maxTasks = 40): TaskRecord[] {
  const tasks: TaskRecord[] = [];
  for (const d of digests) {
    const intent = d.userPrompts[0];
    if (intent === undefined || intent.trim().length < 8) continue;
    const followUps = d.userPrompts.slice(1, 4).map((p) => clip(p, 200));
    const context =
      followUps.length > 0 ? `Follow-up constraints from the same session:\n- ${followUps.join("\n- ")}` : "";
    const tags: string[] = [];
    if (d.toolsUsed.length > 0) tags.push(`tools:${d.toolsUsed.slice(0, 4).join("+")}`);
    if (d.gitBranch) tags.push(`branch:${d.gitBranch}`);
    tasks.push(
      makeTask({
        id: `task_${sha256Hex(`${d.project}::${intent}`).slice(0, 12)}`,
        project: d.project,
        intent: clip(intent, 800),
        contextExcerpt: clip(context, 600),
        attemptedSolution: clip(d.assistantFinals.at(-1) ?? "", 600),
        outcome: outcomeOf(d),
        referenceKind: "none",
        tags,
        sourceSessions: [d.sessionId],
        skillHint: sessionSkillHint(d),
      }),
    );
    if (tasks.length >= maxTasks) break;
  }
  return tasks;
}

const OUTCOME_RANK: Record<Outcome, number> = { success: 3, fail: 2, mixed: 1, unknown: 0 };

/**
 * Merges tasks that share an id (the same intent seen in several sessions): source sessions are united,
 * the most resolved outcome wins, and the skill hint survives only when every observation agrees.
 */
export function dedupTasks(tasks: readonly TaskRecord[]): TaskRecord[] {
  const byId = new Map<string, TaskRecord>();
  const hints = new Map<string, Set<string>>();
  for (const t of tasks) {
    if (t.skillHint) hints.set(t.id, (hints.get(t.id) ?? new Set()).add(t.skillHint));
    const seen = byId.get(t.id);
    if (!seen) {
      byId.set(t.id, { ...t, sourceSessions: [...t.sourceSessions] });
      continue;
    }
    seen.sourceSessions = [...new Set([...seen.sourceSessions, ...t.sourceSessions])];
    if (OUTCOME_RANK[t.outcome] > OUTCOME_RANK[seen.outcome]) seen.outcome = t.outcome;
  }
  for (const [id, t] of byId) {
    const h = hints.get(id);
    t.skillHint = h && h.size === 1 ? [...h][0]! : "";
  }
  return [...byId.values()];
}

/**
 * Tasks grouped by skill hint, first seen first. A task reaches a named group only when all of its
 * observations agree on one non-empty hint; anything else (none, conflicting, partly missing) goes to
 * the managed catch-all.
 */
export function groupTasksBySkillHint(tasks: readonly TaskRecord[], managedName: string): Map<string, TaskRecord[]> {
  const observed = new Map<string, Set<string>>();
  for (const t of tasks) observed.set(t.id, (observed.get(t.id) ?? new Set()).add(t.skillHint.trim()));
  const groups = new Map<string, TaskRecord[]>();
  for (const t of dedupTasks(tasks)) {
    const h = observed.get(t.id)!;
    const hint = h.size === 1 ? [...h][0]! : "";
    const name = hint || managedName;
    groups.set(name, [...(groups.get(name) ?? []), { ...t, skillHint: hint }]);
  }
  return groups;
}

const STOPWORDS = new Set(
  "about after again agent agents all also always and any are before being but can codex current default docs does done each file files for from have into keep must not only path paths project read repo request requests rule rules same should skill skills source start task tasks that the their then this unless update user users when with work workflow".split(
    " ",
  ),
);

function targetTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*/gu)) {
    for (const part of [m[0], ...m[0].split(/[^\p{L}\p{N}]+/u)]) {
      if (part.length < 3 || /^\d+$/.test(part) || STOPWORDS.has(part)) continue;
      out.push(part);
    }
  }
  return out;
}

function expandKeywords(words: Set<string>): void {
  if (words.has("mcp"))
    for (const w of [
      "configure",
      "configuration",
      "connect",
      "connected",
      "enable",
      "enabled",
      "install",
      "installed",
      "server",
      "servers",
    ])
      words.add(w);
  if (words.has("conflict") || words.has("conflicts"))
    for (const w of ["cherry", "conflict", "conflicts", "git", "merge", "rebase", "unmerged"]) words.add(w);
}

/** Strong keywords (the skill's path and headings) and weak ones (those plus its most frequent body words). */
export function targetKeywords(
  skillText: string,
  skillPath: string,
  limit = 180,
): { strong: Set<string>; weak: Set<string> } {
  const headings = [...skillText.matchAll(/^#+\s+(.+)$/gm)].map((m) => m[1]).join("\n");
  const strong = new Set(targetTokens(`${skillPath.replace(/[\\/]/g, " ")}\n${headings}`));
  const weak = new Set(strong);
  const counts = new Map<string, number>();
  for (const t of targetTokens(skillText)) counts.set(t, (counts.get(t) ?? 0) + 1);
  // Stable sort: equal counts keep first-seen order.
  const frequent = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
  for (const [t] of frequent) weak.add(t);
  expandKeywords(strong);
  expandKeywords(weak);
  return { strong, weak };
}

/**
 * Tasks whose words overlap the target skill (≥1 strong or ≥2 weak hits), best first by 3·strong + weak.
 * When nothing matches, every task is kept: sparse transcripts still give the night something to do.
 */
export function filterTasksForTarget(tasks: readonly TaskRecord[], skillText: string, skillPath: string): TaskRecord[] {
  const { strong, weak } = targetKeywords(skillText, skillPath);
  if (tasks.length === 0 || (strong.size === 0 && weak.size === 0)) return [...tasks];
  const ranked: Array<{ score: number; idx: number; task: TaskRecord }> = [];
  tasks.forEach((task, idx) => {
    const words = new Set(targetTokens(`${task.intent}\n${task.contextExcerpt}\n${task.tags.join(" ")}`));
    const s = [...words].filter((w) => strong.has(w)).length;
    const w = [...words].filter((x) => weak.has(x)).length;
    if (s === 0 && w < 2) return;
    ranked.push({ score: 3 * s + w, idx, task });
  });
  if (ranked.length === 0) return [...tasks];
  ranked.sort((a, b) => b.score - a.score || a.idx - b.idx);
  return ranked.map((r) => r.task);
}

export interface SplitOptions {
  valFraction: number;
  testFraction: number;
  seed: number;
}

function stableKey(seed: number, id: string): bigint {
  return BigInt(`0x${sha256Hex(`${seed}${id}`)}`);
}

/**
 * train / val / test by a hash of (seed, id), so a task keeps its split across nights. Dream tasks always
 * train; val and test hold only real tasks. With two or more real tasks and no val, the lowest-hash train
 * task is promoted to val; with no train, one val task is promoted to train. Hash-assigned test tasks are
 * never moved.
 */
export function assignSplits(tasks: TaskRecord[], o: SplitOptions): TaskRecord[] {
  for (const [name, v] of [
    ["val_fraction", o.valFraction],
    ["test_fraction", o.testFraction],
  ] as const) {
    if (!(v >= 0 && v <= 1)) throw new RangeError(`${name} must be between 0 and 1, got ${v}`);
  }
  if (o.valFraction + o.testFraction >= 1)
    throw new RangeError(`val_fraction + test_fraction must be < 1 (got ${o.valFraction} + ${o.testFraction})`);
  const real = tasks.filter((t) => t.origin !== "dream");
  for (const t of tasks) if (t.origin === "dream") t.split = "train";
  const valCut = Math.round(o.valFraction * 100);
  const testCut = valCut + Math.round(o.testFraction * 100);
  for (const t of real) {
    const bucket = Number(stableKey(o.seed, t.id) % 100n);
    t.split = bucket < valCut ? "val" : bucket < testCut ? "test" : "train";
  }
  const promote = (from: TaskRecord["split"], to: TaskRecord["split"]) => {
    const candidates = real.filter((t) => t.split === from);
    candidates.sort((a, b) => {
      const ka = stableKey(o.seed, a.id);
      const kb = stableKey(o.seed, b.id);
      return ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : 1;
    });
    if (candidates[0]) candidates[0].split = to;
  };
  if (real.length >= 2 && !real.some((t) => t.split === "val")) promote("train", "val");
  if (real.length >= 2 && !tasks.some((t) => t.split === "train")) promote("val", "train");
  return tasks;
}

export interface MineOptions extends SplitOptions {
  maxTasks: number;
  /** How many candidates the miners may produce before the filter and the cap (default maxTasks). */
  candidateLimit?: number;
  llmMiner?: (digests: readonly SessionDigest[]) => Promise<TaskRecord[]>;
  targetSkillText?: string;
  targetSkillPath?: string;
}

export async function mine(digests: readonly SessionDigest[], o: MineOptions): Promise<TaskRecord[]> {
  const limit = o.candidateLimit || o.maxTasks;
  let tasks = o.llmMiner ? await o.llmMiner(digests) : [];
  if (tasks.length === 0) tasks = heuristicMine(digests, limit);
  tasks = dedupTasks(tasks);
  if (o.targetSkillText || o.targetSkillPath)
    tasks = filterTasksForTarget(tasks, o.targetSkillText ?? "", o.targetSkillPath ?? "");
  return assignSplits(tasks.slice(0, o.maxTasks), o);
}

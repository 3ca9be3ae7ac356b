/**
 * Skill blame (pure): which change introduced or last changed each line of a skill. A run is a chain of
 * versions — the seed, then for every step its accepted candidate, then whatever the epoch boundary (slow
 * update, appendix flush) or the final selection check made of it. Walking the chain with a line diff, an
 * added line takes the attribution of the change that added it; unchanged lines keep theirs. Lines added
 * by a step are matched to the applied edit whose content holds them (op, rationale, origin, support).
 */
import { diffLines } from "diff";

export interface BlameEdit {
  /** 1-based index of the edit in the step's ranked list. */
  index: number;
  op: string;
  rationale: string;
  /** failure | success | … as the analyst reported it. */
  sourceType: string;
  supportCount: number | null;
  /** How the edit applied (applied_replace, …). */
  status: string;
}

export type BlameOrigin =
  | { kind: "seed" }
  | { kind: "step"; step: number; epoch: number; action: string; edit: BlameEdit | null }
  | { kind: "epoch_boundary"; epoch: number }
  | { kind: "final_check" };

export interface BlameLine {
  line: number;
  text: string;
  origin: BlameOrigin;
}

/** One link of the chain: the text after the change and what made it. */
export interface BlameChange {
  text: string;
  origin: BlameOrigin;
  /** For a step: its applied edits, to find the one that wrote a line. */
  edits?: readonly (BlameEdit & { content: string })[];
}

const split = (text: string): string[] => {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
};

function editFor(line: string, edits: readonly (BlameEdit & { content: string })[] | undefined): BlameEdit | null {
  const wanted = line.trim();
  if (wanted === "" || !edits) return null;
  // The last applied edit holding the line wins: a later edit of the same step replaced an earlier one.
  const hit = [...edits]
    .reverse()
    .find((e) => e.status.startsWith("applied") && split(e.content).some((l) => l.trim() === wanted));
  if (!hit) return null;
  const { content: _content, ...edit } = hit;
  return edit;
}

function step(prev: readonly BlameLine[], change: BlameChange): BlameLine[] {
  const out: BlameLine[] = [];
  let i = 0;
  const prevText = prev.map((l) => `${l.text}\n`).join("");
  for (const part of diffLines(
    prevText,
    change.text.endsWith("\n") || change.text === "" ? change.text : `${change.text}\n`,
  )) {
    const lines = split(part.value);
    if (part.removed) {
      i += lines.length;
      continue;
    }
    // A blank line an edit added belongs to the edit of the nearest added text line of the same hunk.
    const edits = part.added && change.origin.kind === "step" ? lines.map((t) => editFor(t, change.edits)) : [];
    const near = (k: number) => {
      for (let d = 1; d < lines.length; d++)
        for (const j of [k - d, k + d]) if (lines[j]?.trim()) return edits[j] ?? null;
      return null;
    };
    for (const [k, text] of lines.entries()) {
      if (part.added) {
        const edit = change.origin.kind === "step" ? (text.trim() === "" ? near(k) : edits[k]!) : null;
        const origin: BlameOrigin = change.origin.kind === "step" ? { ...change.origin, edit } : change.origin;
        out.push({ line: out.length + 1, text, origin });
      } else {
        out.push({ ...prev[i]!, line: out.length + 1 });
        i++;
      }
    }
  }
  return out;
}

/** Blame of the last text of `chain`; the first link must be the seed. */
export function blameChain(chain: readonly BlameChange[]): BlameLine[] {
  if (chain.length === 0 || chain[0]!.origin.kind !== "seed") throw new Error("a blame chain starts with the seed");
  let lines = split(chain[0]!.text).map((text, i): BlameLine => ({ line: i + 1, text, origin: { kind: "seed" } }));
  for (const change of chain.slice(1)) lines = step(lines, change);
  return lines;
}

export function describeOrigin(o: BlameOrigin): string {
  switch (o.kind) {
    case "seed":
      return "seed skill";
    case "epoch_boundary":
      return `end of epoch ${o.epoch} (slow update / appendix flush)`;
    case "final_check":
      return "final selection check";
    case "step": {
      const base = `step ${o.step} (epoch ${o.epoch}, ${o.action})`;
      if (!o.edit) return `${base}, rewritten by the step`;
      const support = o.edit.supportCount === null ? "" : `, support ${o.edit.supportCount}`;
      return `${base}, edit ${o.edit.index} ${o.edit.op} from ${o.edit.sourceType}${support}: ${o.edit.rationale}`;
    }
  }
}

/** BLAME.md: the skill with, for every line, where it came from. */
export function renderBlameMarkdown(lines: readonly BlameLine[], title = "best_skill.md"): string {
  const out = [
    `# Blame of ${title}`,
    "",
    "Each line of the skill and the change that introduced or last changed it.",
    "",
    "| Line | Text | Origin |",
    "|---:|---|---|",
  ];
  const cell = (s: string) => s.replaceAll("|", "\\|").replace(/\s+/g, " ").trim();
  for (const l of lines) out.push(`| ${l.line} | ${cell(l.text) || " "} | ${cell(describeOrigin(l.origin))} |`);
  return `${out.join("\n")}\n`;
}

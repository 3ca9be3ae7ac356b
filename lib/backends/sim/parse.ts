/**
 * Reading prompts the way the simulated model needs to: sections, skill blocks, trajectories, and the
 * deterministic pseudo-random draws that stand in for sampling noise.
 */
import { createHash } from "node:crypto";
import { splitSkillSection } from "../../contracts/target-skill";

/** The body of the first `## <title>` section (title matched as a prefix) up to the next `## ` line. */
export function sectionBody(text: string, titlePrefix: string): string | null {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`## ${titlePrefix}`));
  if (start < 0) return null;
  const out: string[] = [];
  let inSkill = false;
  for (const line of lines.slice(start + 1)) {
    if (line === "<skill>") inSkill = true;
    if (line === "</skill>") inSkill = false;
    if (!inSkill && line.startsWith("## ")) break;
    out.push(line);
  }
  return out.join("\n").trim();
}

/** The n-th (0-based) skill document wrapped in <skill> tags. */
export function skillBlocks(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const a = text.indexOf("<skill>\n", from);
    if (a < 0) return out;
    const b = text.indexOf("\n</skill>", a + 8);
    if (b < 0) return out;
    out.push(text.slice(a + 8, b));
    from = b + 9;
  }
}

/** The skill a target prompt carries (its `## Skill` section, wherever the benchmark places it). */
export function targetSkill(system: string): string {
  return splitSkillSection(system).skill;
}

export interface ParsedTrajectory {
  id: string;
  prediction: string | null;
  failReason: string | null;
}

/** Trajectory blocks of an analyst prompt ("### Trajectory k (id=…)" headers). */
export function parseTrajectories(text: string): ParsedTrajectory[] {
  const out: ParsedTrajectory[] = [];
  const re = /^### Trajectory \d+ \(id=(.*)\)$/gm;
  const heads = [...text.matchAll(re)];
  heads.forEach((h, i) => {
    const block = text.slice(h.index! + h[0].length, heads[i + 1]?.index ?? text.length);
    // Header fields only: the prompts and conversation shown below the header may contain such lines too.
    const body = block.split("\n#### ", 1)[0]!;
    const field = (name: string) => new RegExp(`^${name}: (.*)$`, "m").exec(body)?.[1] ?? null;
    out.push({ id: h[1]!, prediction: field("Prediction"), failReason: field("Failure reason") });
  });
  return out;
}

/**
 * What an analyst prompt's decisions are keyed on: the current skill and each trajectory's id, prediction
 * and failure reason — never the wording of the prompts around them, so rewording a prompt leaves every
 * simulated decision as it was.
 */
export function analystKey(user: string): string {
  const rows = parseTrajectories(user).map((t) => [t.id, t.prediction ?? "", t.failReason ?? ""].join("\u0001"));
  return [skillBlocks(user)[0] ?? "", ...rows].join("\u0002");
}

/** A uniform number in [0, 1) from a hash of the parts: same inputs, same draw. */
export function draw(...parts: Array<string | number>): number {
  const hex = createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 8);
  return Number.parseInt(hex, 16) / 2 ** 32;
}

export function normaliseAnswer(s: string): string {
  return s.replace(/\s+/g, " ").trim().toLowerCase();
}

export const approxTokens = (text: string): number => Math.ceil(text.length / 4);

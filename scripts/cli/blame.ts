/**
 * `skillopt blame DIR`: where every line of a run's best_skill.md came from — the seed, a step's edit (op,
 * rationale, failure/success origin, support), an epoch boundary (slow update, appendix flush) or the final
 * selection check — read from the run folder the CLI and the worker write. Prints BLAME.md (or JSON);
 * `--write` also saves DIR/BLAME.md.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  blameChain,
  renderBlameMarkdown,
  type BlameChange,
  type BlameEdit,
  type BlameLine,
} from "../../lib/engine/blame";
import { AppError } from "../../lib/errors";

export interface BlameArgs {
  dir?: string;
  json?: boolean;
  write?: boolean;
}

const pad = (n: number) => String(n).padStart(4, "0");

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch (e) {
    throw new AppError("INVALID_REQUEST", `${path}: ${(e as Error).message}`, { field: "DIR" });
  }
}

interface RankedEdit {
  op: string;
  content?: string | null;
  rationale?: string;
  source_type?: string;
  support_count?: number;
}

function stepEdits(stepDir: string): (BlameEdit & { content: string })[] {
  const ranked = existsSync(join(stepDir, "ranked_edits.json"))
    ? (readJson<{ edits?: RankedEdit[] }>(join(stepDir, "ranked_edits.json")).edits ?? [])
    : [];
  const report = existsSync(join(stepDir, "edit_apply_report.json"))
    ? readJson<{ index: number; status: string }[]>(join(stepDir, "edit_apply_report.json"))
    : [];
  return ranked.map((e, i) => ({
    index: i + 1,
    op: e.op,
    content: e.content ?? "",
    rationale: e.rationale ?? "",
    sourceType: e.source_type ?? "unknown",
    supportCount: typeof e.support_count === "number" ? e.support_count : null,
    status: report.find((r) => r.index === i + 1)?.status ?? "unknown",
  }));
}

/** The chain of versions of a run folder, ending at its best skill. */
export function runBlameChain(dir: string): BlameChange[] {
  const seedPath = join(dir, "skills", "skill_v0000.md");
  const bestPath = join(dir, "best_skill.md");
  if (!existsSync(seedPath) || !existsSync(bestPath)) {
    throw new AppError(
      "INVALID_REQUEST",
      `${dir} is not a finished run folder (needs skills/skill_v0000.md and best_skill.md)`,
      { field: "DIR" },
    );
  }
  const best = readFileSync(bestPath, "utf8");
  const chain: BlameChange[] = [{ text: readFileSync(seedPath, "utf8"), origin: { kind: "seed" } }];
  let bestAt = chain[0]!.text === best ? 1 : 0;
  for (let n = 1; existsSync(join(dir, "steps", `step_${pad(n)}`, "step_record.json")); n++) {
    const stepDir = join(dir, "steps", `step_${pad(n)}`);
    const rec = readJson<{ action?: string; epoch?: number }>(join(stepDir, "step_record.json"));
    const action = rec.action ?? "unknown";
    const epoch = rec.epoch ?? 0;
    const candidate = join(stepDir, "candidate_skill.md");
    if (action.startsWith("accept") && existsSync(candidate)) {
      chain.push({
        text: readFileSync(candidate, "utf8"),
        origin: { kind: "step", step: n, epoch, action, edit: null },
        edits: stepEdits(stepDir),
      });
    }
    const version = join(dir, "skills", `skill_v${pad(n)}.md`);
    if (existsSync(version)) {
      const text = readFileSync(version, "utf8");
      if (text !== chain.at(-1)!.text) chain.push({ text, origin: { kind: "epoch_boundary", epoch } });
    }
    if (chain.at(-1)!.text === best) bestAt = chain.length;
  }
  if (bestAt === 0) return [...chain, { text: best, origin: { kind: "final_check" } }];
  return chain.slice(0, bestAt);
}

export function blameRun(dir: string): BlameLine[] {
  return blameChain(runBlameChain(dir));
}

export function runBlameCommand(args: BlameArgs, cwd = process.cwd()): number {
  if (!args.dir)
    throw new AppError("INVALID_REQUEST", "blame needs the run folder: npm run skillopt -- blame DIR", {
      field: "DIR",
    });
  const dir = resolve(cwd, args.dir);
  const lines = blameRun(dir);
  const md = renderBlameMarkdown(lines);
  if (args.write) writeFileSync(join(dir, "BLAME.md"), md);
  process.stdout.write(args.json ? `${JSON.stringify(lines, null, 2)}\n` : md);
  return 0;
}

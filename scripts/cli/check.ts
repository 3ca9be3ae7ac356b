/**
 * `skillopt check`: leakage and test-peek checks before (or after) a run — items duplicated across the
 * train / selection / test splits, and skill lines that hold selection or test gold answers or quote an
 * item's question. Reads the config's splits and its seed skill, plus any `--skill FILE` (e.g. a run's
 * best_skill.md). Exit 0 when nothing is found, 1 when something is, 2 on bad input.
 */
import { resolve } from "node:path";
import { loadRunConfig } from "../../lib/config";
import {
  findDuplicates,
  findMemorisedLines,
  itemTexts,
  type DuplicatePair,
  type MemorisedLine,
} from "../../lib/engine/leakage";
import { AppError } from "../../lib/errors";
import { benchmarkSplitOptions, initialSkillPath, loadSplits } from "../../lib/envs";
import { readSkillFile } from "../../lib/runs/prepare";

export interface CheckArgs {
  config?: string;
  skills: string[];
  overrides: string[];
  threshold?: string;
  json?: boolean;
}

export interface CheckReport {
  items: { train: number; val: number; test: number; compared: number };
  threshold: number;
  duplicates: DuplicatePair[];
  skills: { path: string; lines: MemorisedLine[] }[];
}

const SPLIT_LABEL = { train: "train", val: "selection", test: "test" } as const;

function parseThreshold(raw: string | undefined): number {
  if (raw === undefined) return 0.8;
  const t = Number(raw);
  if (!Number.isFinite(t) || t <= 0 || t > 1)
    throw new AppError("INVALID_REQUEST", `--threshold must be a number in (0, 1] (got '${raw}')`, {
      field: "--threshold",
    });
  return t;
}

export function checkLeakage(args: CheckArgs, cwd = process.cwd()): CheckReport {
  if (!args.config) throw new AppError("INVALID_REQUEST", "--config FILE is required", { field: "--config" });
  const threshold = parseThreshold(args.threshold);
  const { config } = loadRunConfig(args.config, args.overrides);
  const splits = loadSplits(benchmarkSplitOptions(config, cwd));
  const texts = itemTexts({ train: splits.train, val: splits.val, test: splits.test });
  const seedPath = resolve(cwd, config.env.skill_init || initialSkillPath(config.env.name));
  // A skill named twice (or the seed passed again as --skill) is checked once: its lines count once in the total.
  const skillPaths = [...new Set([seedPath, ...args.skills.map((s) => resolve(cwd, s))])];
  return {
    items: { train: splits.train.length, val: splits.val.length, test: splits.test.length, compared: texts.length },
    threshold,
    duplicates: findDuplicates(texts, { threshold }),
    skills: skillPaths.map((path, i) => ({
      path,
      lines: findMemorisedLines(readSkillFile(path, i === 0 ? "env.skill_init" : "--skill"), texts),
    })),
  };
}

/** Findings in a report: each duplicate pair once, each flagged line of each distinct skill file once. */
export function findingCount(r: CheckReport): number {
  return r.duplicates.length + r.skills.reduce((n, s) => n + s.lines.length, 0);
}

export function formatCheckReport(r: CheckReport): string {
  const out: string[] = [];
  out.push(
    `items: ${r.items.train} train, ${r.items.val} selection, ${r.items.test} test (${r.items.compared} with text to compare)`,
  );
  out.push(`duplicates across splits (normalised text, word-shingle Jaccard ≥ ${r.threshold}): ${r.duplicates.length}`);
  for (const d of r.duplicates) {
    out.push(
      `  ${d.exact ? "exact" : `near ${d.similarity.toFixed(2)}`}: ${SPLIT_LABEL[d.a.split]} ${d.a.id} ↔ ${SPLIT_LABEL[d.b.split]} ${d.b.id}`,
    );
  }
  for (const s of r.skills) {
    out.push(`${s.path}: ${s.lines.length} line(s) holding selection or test data`);
    for (const l of s.lines) {
      const what = l.kind === "gold" ? `gold answer "${l.match}"` : `question words "${l.match}"`;
      out.push(`  line ${l.line}: ${what} of ${SPLIT_LABEL[l.split]} item ${l.itemId}: ${l.text.trim().slice(0, 160)}`);
    }
  }
  const found = findingCount(r);
  out.push(found === 0 ? "no leakage found" : `leakage found: ${found} finding(s)`);
  return `${out.join("\n")}\n`;
}

export function runCheckCommand(args: CheckArgs, cwd = process.cwd()): number {
  const report = checkLeakage(args, cwd);
  process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheckReport(report));
  return findingCount(report) === 0 ? 0 : 1;
}

/**
 * Leakage for the New-run estimate and the run page (lib/engine/leakage.ts): items duplicated across the
 * train / selection / test splits, and lines of the seed and best skills holding selection or test data.
 */
import type { LeakageReport } from "../contracts/evidence";
import { getBestSkill } from "../db/export";
import { AppError } from "../errors";
import { getRun, runConfigOf } from "../db/runs";
import { findDuplicates, findMemorisedLines, itemTexts } from "../engine/leakage";
import type { Splits } from "../engine/types";
import { loadBenchmarkSplits } from "../envs";
import { pathGuardFor } from "./trust";

export const LEAKAGE_THRESHOLD = 0.8;

export function leakageReport(splits: Splits, skills: Record<string, string>): LeakageReport {
  const texts = itemTexts(splits);
  return {
    itemsCompared: texts.length,
    threshold: LEAKAGE_THRESHOLD,
    duplicates: findDuplicates(texts, { threshold: LEAKAGE_THRESHOLD }),
    skills: Object.entries(skills).map(([name, text]) => ({ name, lines: findMemorisedLines(text, texts) })),
  };
}

/** The run's leakage, its data loaded again from its stored config (files only inside the allowed roots). */
export async function getRunLeakage(id: string, rootDir: string): Promise<LeakageReport> {
  const run = await getRun(id);
  const config = runConfigOf(run);
  const paths = pathGuardFor("request", rootDir, process.env);
  const splits = loadBenchmarkSplits(config, rootDir, paths);
  // Before the baseline there is no best skill yet (a CONFLICT): only the seed is checked then.
  const best = await getBestSkill(id).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "CONFLICT") return null;
    throw e;
  });
  return leakageReport(splits, best === null ? { seed: run.seedSkill } : { seed: run.seedSkill, best });
}

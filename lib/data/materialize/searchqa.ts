/**
 * SearchQA (spec §A.5): match every manifest id to the `key` column of every file of
 * lucadiliello/searchqa, write `{id, question, context, answers}` per split in manifest order.
 */
import { fetchDatasetFile, listDatasetFiles, scanTable } from "../files";
import { allIds } from "../manifest";
import { requireFields, RowIndex } from "../match";
import { manifestCounts, writeItemSplits, writeSplitManifest } from "./common";
import type { Materializer } from "./types";

export const SEARCHQA_FIELDS = ["id", "question", "context", "answers"] as const;

/** Answers as a list of strings: a list, a JSON/Python-literal list string, or one answer. */
export function coerceAnswers(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.map(String);
  if (raw !== null && typeof raw === "object" && typeof (raw as { length?: unknown }).length === "number") return Array.from(raw as ArrayLike<unknown>, String);
  if (typeof raw !== "string") return raw === undefined || raw === null ? [] : [String(raw)];
  const text = raw.trim();
  if (text.startsWith("[")) {
    try {
      const parsed = JSON.parse(text.replace(/'([^'\\]*(?:\\.[^'\\]*)*)'/g, (_m, s: string) => JSON.stringify(s.replace(/\\'/g, "'"))));
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // not a list literal: the whole string is the answer
    }
  }
  return [raw];
}

export const materializeSearchQa: Materializer = async (ctx) => {
  const label = ctx.src.dataset!.repo;
  const index = new RowIndex<Record<string, unknown>>(new Set(allIds(ctx.manifest)), label);
  for (const file of await listDatasetFiles(ctx.dl, ctx.src)) {
    const n = await scanTable(await fetchDatasetFile(ctx.dl, ctx.src, file), file, "key", index);
    ctx.log(`${file}: ${n} rows scanned, ${index.size} ids matched so far`);
  }
  index.requireAll();
  writeItemSplits(ctx, (split) =>
    ctx.manifest.splits[split].map(({ id }) => {
      const row = index.get(id);
      requireFields(id, row, ["question", "context", "answers"], label);
      return { id, question: String(row.question), context: String(row.context), answers: coerceAnswers(row.answers) };
    }),
  );
  writeSplitManifest(ctx, SEARCHQA_FIELDS);
  return { counts: manifestCounts(ctx.manifest), notes: [] };
};

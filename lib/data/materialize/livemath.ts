/**
 * LiveMathematicianBench (spec §A.4, §A.8): each manifest item names its monthly `source_file` and `no`;
 * rows are matched by that pair and written as complete LiveMath items (the livemath loader's shape).
 */
import { AppError } from "../../errors";
import { normaliseLiveMathRow } from "../../envs/livemath/normalise";
import { fetchDatasetFile, readTableRows } from "../files";
import { SPLITS } from "../manifest";
import { keyOf, RowIndex } from "../match";
import { aboutItem, manifestCounts, writeItemSplits, writeSplitManifest } from "./common";
import type { Materializer } from "./types";

export const LIVEMATH_FIELDS = [
  "id", "month", "no", "paper_link", "source_file", "question", "choices", "correct_choice", "theorem", "sketch", "theorem_type",
] as const;

const key = (file: string, no: string) => `${file}#${no}`;

export const materializeLiveMath: Materializer = async (ctx) => {
  const label = ctx.src.dataset!.repo;
  const wanted = new Map<string, string>();
  const files: string[] = [];
  for (const item of SPLITS.flatMap((s) => ctx.manifest.splits[s])) {
    const file = typeof item.source_file === "string" ? item.source_file : "";
    const no = keyOf(item.no) ?? /:(\d+)$/.exec(item.id)?.[1] ?? null;
    if (file === "" || no === null) throw new AppError("INVALID_REQUEST", `manifest id '${item.id}' lacks 'source_file' or 'no'`);
    if (!files.includes(file)) files.push(file);
    wanted.set(key(file, no), item.id);
  }
  const index = new RowIndex<{ row: Record<string, unknown>; file: string; at: number }>(wanted, label);
  for (const file of files) {
    const rows = await readTableRows(await fetchDatasetFile(ctx.dl, ctx.src, file), file);
    rows.forEach((row, i) => index.offer(key(file, keyOf(row?.no) ?? String(i + 1)), { row, file, at: i }, `${file} row ${i + 1}`));
    ctx.log(`${file}: ${rows.length} rows scanned`);
  }
  index.requireAll();
  writeItemSplits(ctx, (split) =>
    ctx.manifest.splits[split].map((m) => {
      const no = keyOf(m.no) ?? /:(\d+)$/.exec(m.id)?.[1] ?? "";
      const hit = index.get(key(String(m.source_file), no));
      const item = aboutItem(label, m.id, () => normaliseLiveMathRow({ ...hit.row, id: m.id }, { file: hit.file, index: hit.at }));
      return {
        id: m.id,
        month: item.month,
        no: item.no,
        paper_link: hit.row.paper_link ?? m.paper_link ?? "",
        source_file: hit.file,
        question: item.question,
        choices: item.choices,
        correct_choice: item.correct_choice,
        theorem: item.theorem,
        sketch: item.sketch,
        theorem_type: item.theorem_type,
      };
    }),
  );
  writeSplitManifest(ctx, LIVEMATH_FIELDS, { source_files: files });
  return { counts: manifestCounts(ctx.manifest), notes: [] };
};

/**
 * OfficeQA (spec §A.4, §A.7): rows of the gated `officeqa_full.csv` matched by `uid`, written as one CSV
 * per split (`<split>/<split>.csv`, the source's columns, manifest order) for the OfficeQA loader.
 */
import path from "node:path";
import { AppError } from "../../errors";
import { fetchDatasetFile, listDatasetFiles, readTableRows, toCsv, writeOut } from "../files";
import { allIds, SPLITS } from "../manifest";
import { keyOf, requireFields, RowIndex } from "../match";
import { manifestCounts, writeSplitManifest } from "./common";
import type { Materializer } from "./types";

export const materializeOfficeQa: Materializer = async (ctx) => {
  const label = ctx.src.dataset!.repo;
  const index = new RowIndex<Record<string, unknown>>(new Set(allIds(ctx.manifest)), label);
  let columns: string[] = [];
  for (const file of await listDatasetFiles(ctx.dl, ctx.src)) {
    const rows = await readTableRows(await fetchDatasetFile(ctx.dl, ctx.src, file), file);
    if (rows[0]) columns = Object.keys(rows[0]);
    rows.forEach((row, i) => index.offer(keyOf(row.uid ?? row.id), row, `${file} row ${i + 2}`));
    ctx.log(`${file}: ${rows.length} rows scanned`);
  }
  if (!columns.includes("uid") && !columns.includes("id")) throw new AppError("INVALID_REQUEST", `${label}: the CSV has no 'uid' column`);
  index.requireAll();
  for (const split of SPLITS) {
    const rows = ctx.manifest.splits[split].map(({ id }) => {
      const row = index.get(id);
      requireFields(id, row, ["question"], label);
      if (row.answer === undefined && row.ground_truth === undefined) requireFields(id, row, ["answer"], label);
      return row;
    });
    writeOut(path.join(ctx.stage, split, `${split}.csv`), toCsv(columns, rows));
  }
  writeSplitManifest(ctx, columns);
  return { counts: manifestCounts(ctx.manifest), notes: [ctx.src.note ?? ""].filter(Boolean) };
};

/**
 * SpreadsheetBench Verified 400 (spec §A.4, §A.9): the tarball's `dataset.json` tasks matched by `id`,
 * written as items per split; the task folders of the wanted ids are unpacked to
 * `<out>/spreadsheetbench_verified_400/<spreadsheet_path>/` (point `env.data_root` there).
 */
import path from "node:path";
import { AppError } from "../../errors";
import { fetchDatasetFile, listDatasetFiles, writeOut } from "../files";
import { allIds } from "../manifest";
import { keyOf, requireFields, RowIndex } from "../match";
import { readTar } from "../tar";
import { manifestCounts, writeItemSplits, writeSplitManifest } from "./common";
import type { Materializer } from "./types";

export const TASKS_DIR = "spreadsheetbench_verified_400";

export const materializeSpreadsheetBench: Materializer = async (ctx) => {
  const label = ctx.src.dataset!.repo;
  const [archiveName] = await listDatasetFiles(ctx.dl, ctx.src);
  const files = readTar(await fetchDatasetFile(ctx.dl, ctx.src, archiveName!), archiveName);
  const datasetJson = files.filter((f) => path.posix.basename(f.path) === "dataset.json").sort((a, b) => a.path.length - b.path.length)[0];
  if (!datasetJson) throw new AppError("INVALID_REQUEST", `${archiveName}: no dataset.json in the archive`);
  const root = path.posix.dirname(datasetJson.path);
  let tasks: unknown;
  try {
    tasks = JSON.parse(new TextDecoder().decode(datasetJson.data));
  } catch {
    throw new AppError("INVALID_REQUEST", `${archiveName}: ${datasetJson.path} is not valid JSON`);
  }
  if (!Array.isArray(tasks)) throw new AppError("INVALID_REQUEST", `${archiveName}: ${datasetJson.path} is not a JSON array`);
  const index = new RowIndex<Record<string, unknown>>(new Set(allIds(ctx.manifest)), `${label} ${archiveName}`);
  tasks.forEach((t: Record<string, unknown>, i) => index.offer(keyOf(t?.id), t, `task ${i}`));
  index.requireAll();
  const folders = new Set<string>();
  writeItemSplits(ctx, (split) =>
    ctx.manifest.splits[split].map((m) => {
      const task = index.get(m.id);
      requireFields(m.id, task, ["instruction", "answer_position"], label);
      const rel = String(task.spreadsheet_path ?? m.spreadsheet_path ?? `spreadsheet/${m.id}`).replace(/^\.\/|\/+$/g, "");
      folders.add(rel);
      return { ...task, id: m.id, instruction_type: task.instruction_type ?? m.instruction_type, spreadsheet_path: rel };
    }),
  );
  let copied = 0;
  for (const f of files) {
    const inside = root === "." ? f.path : f.path.startsWith(`${root}/`) ? f.path.slice(root.length + 1) : null;
    if (inside === null || ![...folders].some((d) => inside.startsWith(`${d}/`))) continue;
    writeOut(path.join(ctx.stage, TASKS_DIR, ...inside.split("/")), f.data);
    copied++;
  }
  const missing = [...folders].filter((d) => !files.some((f) => f.path.startsWith(root === "." ? `${d}/` : `${root}/${d}/`)));
  if (missing.length > 0) {
    throw new AppError("NOT_FOUND", `${archiveName}: ${missing.length} task folders missing: ${missing.slice(0, 5).join(", ")}`);
  }
  writeSplitManifest(ctx, ["id", "instruction", "instruction_type", "answer_position", "spreadsheet_path"], { data_root: TASKS_DIR, files: copied });
  const dataRoot = path.join(path.relative(ctx.rootDir, ctx.finalOut) || ".", TASKS_DIR);
  return { counts: manifestCounts(ctx.manifest), notes: [`task files: ${dataRoot} (use --cfg-options env.data_root=${dataRoot})`] };
};

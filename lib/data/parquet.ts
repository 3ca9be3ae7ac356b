/**
 * Parquet rows for the Hugging Face datasets that only ship parquet (SearchQA, DocVQA), via hyparquet
 * (pure JS; snappy built in). UTF8-annotated columns come back as strings, plain binary columns (images)
 * as Uint8Array, INT64 as bigint.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema, type FileMetaData } from "hyparquet";
import { AppError } from "../errors";

type Row = Record<string, unknown>;

function toArrayBuffer(buffer: Uint8Array): ArrayBuffer {
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}

async function guarded<T>(where: string, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new AppError("INVALID_REQUEST", `${where}: cannot read parquet (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** Every row of a parquet file as a plain object keyed by column name. */
export async function readParquetRows(buffer: Uint8Array, where = "parquet file"): Promise<Row[]> {
  const file = toArrayBuffer(buffer);
  // utf8:false keeps unannotated BYTE_ARRAY columns (image bytes) binary; UTF8/STRING columns are still text.
  return guarded(where, async () => (await parquetReadObjects({ file, utf8: false })) as Row[]);
}

/**
 * The key column of every row, and the full rows only where `wants(key)`: row groups without a wanted
 * row are never decoded, and only one row group's rows are held at a time (a SearchQA shard has
 * ~100k rows of long contexts; a DocVQA shard carries every page image).
 */
export async function readParquetKeyed(
  buffer: Uint8Array,
  opts: { keyColumn: string; wants: (key: unknown) => boolean; where?: string },
): Promise<{ keys: unknown[]; rows: Map<number, Row> }> {
  const where = opts.where ?? "parquet file";
  const file = toArrayBuffer(buffer);
  const metadata: FileMetaData = await guarded(where, () => parquetMetadata(file));
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  if (!names.includes(opts.keyColumn)) throw new AppError("INVALID_REQUEST", `${where}: no '${opts.keyColumn}' column (has ${names.join(", ")})`);
  const keyRows = (await guarded(where, () => parquetReadObjects({ file, metadata, columns: [opts.keyColumn], utf8: false }))) as Row[];
  const keys = keyRows.map((r) => r[opts.keyColumn]);
  const wanted = keys.flatMap((k, i) => (opts.wants(k) ? [i] : []));
  const rows = new Map<number, Row>();
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    const inGroup = wanted.filter((i) => i >= start && i < end);
    if (inGroup.length > 0) {
      const part = (await guarded(where, () => parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end, utf8: false }))) as Row[];
      for (const i of inGroup) rows.set(i, part[i - start]!);
    }
    start = end;
  }
  return { keys, rows };
}

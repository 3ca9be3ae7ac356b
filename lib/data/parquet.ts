/**
 * Parquet rows for the Hugging Face datasets that only ship parquet (SearchQA, DocVQA), via hyparquet
 * (pure JS; snappy built in). UTF8-annotated columns come back as strings, plain binary columns (images) as Uint8Array,
 * INT64 as bigint.
 */
import { parquetReadObjects } from "hyparquet";
import { AppError } from "../errors";

/** Every row of a parquet file as a plain object keyed by column name. */
export async function readParquetRows(buffer: Uint8Array, where = "parquet file"): Promise<Record<string, unknown>[]> {
  const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
  try {
    // utf8:false keeps unannotated BYTE_ARRAY columns (image bytes) binary; UTF8/STRING columns are still text.
    return (await parquetReadObjects({ file, utf8: false })) as Record<string, unknown>[];
  } catch (err) {
    throw new AppError("INVALID_REQUEST", `${where}: cannot read parquet (${err instanceof Error ? err.message : String(err)})`);
  }
}

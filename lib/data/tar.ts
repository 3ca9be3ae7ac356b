/**
 * A minimal reader for (gzipped) ustar / GNU tar archives, enough for a dataset tarball: regular files
 * and folders, long names (GNU `L` records and pax `path`), nothing else. Links and device entries are
 * refused, as are names that climb out of the archive (`..`, absolute paths).
 */
import { gunzipSync } from "node:zlib";
import { AppError } from "../errors";

/** One regular file of the archive. */
export interface TarFile {
  path: string;
  data: Uint8Array;
}

const decoder = new TextDecoder("utf-8");

function field(block: Uint8Array, start: number, length: number): string {
  const bytes = block.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function octal(block: Uint8Array, start: number, length: number): number {
  const text = field(block, start, length).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function safePath(name: string, where: string): string {
  const clean = name.replace(/^\.\/+/, "").replace(/\/+$/, "");
  if (clean.startsWith("/") || clean.split("/").includes("..")) {
    throw new AppError("INVALID_REQUEST", `${where}: refusing unsafe tar entry '${name}'`);
  }
  return clean;
}

function paxPath(data: Uint8Array): string | null {
  for (const line of decoder.decode(data).split("\n")) {
    const m = /^\d+ path=(.*)$/.exec(line);
    if (m) return m[1] ?? null;
  }
  return null;
}

/** The regular files of a tar archive (gunzipped first when it starts with the gzip magic). */
export function readTar(archive: Uint8Array, where = "archive"): TarFile[] {
  const buf = archive[0] === 0x1f && archive[1] === 0x8b ? new Uint8Array(gunzipSync(archive)) : archive;
  const files: TarFile[] = [];
  let offset = 0;
  let longName: string | null = null;
  while (offset + 512 <= buf.length) {
    const header = buf.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const base = field(header, 0, 100);
    const name = longName ?? (prefix ? `${prefix}/${base}` : base);
    const dataStart = offset + 512;
    if (dataStart + size > buf.length) throw new AppError("INVALID_REQUEST", `${where}: truncated tar entry '${name}'`);
    const data = buf.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = field(data, 0, data.length);
      continue;
    }
    if (type === "x") {
      longName = paxPath(data);
      continue;
    }
    longName = null;
    if (type === "g" || type === "5") continue;
    if (type !== "0" && type !== "\0" && type !== "7") {
      throw new AppError("INVALID_REQUEST", `${where}: refusing tar entry '${name}' of type '${type}' (only files and folders)`);
    }
    files.push({ path: safePath(name, where), data });
  }
  return files;
}

import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readTar } from "./tar";
import { makeTarGz } from "./testing";

describe("readTar", () => {
  it("reads files of a gzipped and a plain archive", () => {
    const big = "x".repeat(1300);
    const gz = makeTarGz({ "a/b.txt": "hello", "a/big.bin": big, "c.json": "{}" });
    const files = readTar(gz);
    expect(files.map((f) => f.path)).toEqual(["a/b.txt", "a/big.bin", "c.json"]);
    expect(new TextDecoder().decode(files[1]!.data)).toBe(big);
    expect(readTar(new Uint8Array(gunzipSync(gz))).length).toBe(3);
  });

  it("refuses entries that climb out of the archive, and truncated archives", () => {
    expect(() => readTar(makeTarGz({ "../evil.sh": "rm" }), "x.tar.gz")).toThrow("x.tar.gz: refusing unsafe tar entry '../evil.sh'");
    expect(() => readTar(makeTarGz({ "/etc/passwd": "" }))).toThrow(/unsafe tar entry/);
    const raw = gunzipSync(makeTarGz({ "f.txt": "y".repeat(2000) })) as Buffer;
    expect(() => readTar(new Uint8Array(gzipSync(raw.subarray(0, 1024))), "t.tar")).toThrow("t.tar: truncated tar entry 'f.txt'");
  });
});

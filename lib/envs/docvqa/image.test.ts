import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { imageCandidates, mediaTypeOf, readDocumentImage } from "./image";

describe("document images", () => {
  it("picks the MIME type by extension, PNG by default", () => {
    expect(["a.PNG", "b.jpg", "c.jpeg", "d.webp", "e.gif", "f.tiff", "g.bmp", "h", "i.pdf"].map(mediaTypeOf)).toEqual([
      "image/png",
      "image/jpeg",
      "image/jpeg",
      "image/webp",
      "image/gif",
      "image/tiff",
      "image/bmp",
      "image/png",
      "image/png",
    ]);
  });

  it("tries the source folder, then the split_dir, then the project root; absolute paths as they are", () => {
    const roots = { sourceDir: "/data/splits/train", splitDir: "data/splits", rootDir: "/proj" };
    expect(imageCandidates("img/a.png", roots)).toEqual([
      "/data/splits/train/img/a.png",
      "/proj/data/splits/img/a.png",
      "/proj/img/a.png",
    ]);
    expect(imageCandidates("/abs/a.png", roots)).toEqual(["/abs/a.png"]);
    expect(imageCandidates("a.png", { rootDir: "/proj" })).toEqual(["/proj/a.png"]);
  });

  it("reads the first existing candidate and names empty files", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "docvqa-image-"));
    try {
      writeFileSync(path.join(dir, "a.jpg"), Buffer.from([1, 2, 3]));
      writeFileSync(path.join(dir, "empty.png"), "");
      expect(await readDocumentImage("a.jpg", { sourceDir: path.join(dir, "nope"), rootDir: dir })).toEqual({
        ok: true,
        file: path.join(dir, "a.jpg"),
        mediaType: "image/jpeg",
        dataBase64: "AQID",
        bytes: 3,
      });
      expect(await readDocumentImage("empty.png", { rootDir: dir })).toEqual({
        ok: false,
        reason: `document image ${path.join(dir, "empty.png")} is empty`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { POST } from "../../app/api/uploads/route";
import { MAX_UPLOAD_BYTES, type UploadInfo } from "../contracts/api";
import type { AppError } from "../errors";
import { storeDataset, suggestMapping, uploadDataset } from "./uploads";

const root = mkdtempSync(join(tmpdir(), "uploads-"));
const created: string[] = [];
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  for (const p of created) rmSync(p, { force: true });
});

function request(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1:7871/api/uploads", { method: "POST", body, headers });
}
/** A multipart upload streamed without Content-Length (chunked), as Next's proxy passes a body it cut short. */
function streamedUpload(fileBytes: number): Request {
  const head = new TextEncoder().encode(
    '--b\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\n',
  );
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(head),
    pull(c) {
      if (sent >= fileBytes) return c.close();
      sent += 1024 * 1024;
      c.enqueue(new Uint8Array(1024 * 1024).fill(0x61));
    },
  });
  return new Request("http://127.0.0.1:7871/api/uploads", {
    method: "POST",
    body,
    headers: { "content-type": "multipart/form-data; boundary=b" },
    duplex: "half",
  } as RequestInit);
}
function multipart(text: string, name: string): Request {
  const form = new FormData();
  form.set("file", new File([text], name));
  return request(form);
}
const jsonl = [
  '{"uid": "a", "prompt": "Q1?", "gold": "x", "passage": "p"}',
  '{"uid": "b", "prompt": "Q2?", "gold": ["y", "z"], "passage": "q", "extra": 1}',
].join("\n");

describe("POST /api/uploads (route, real Requests)", () => {
  it("stores a JSONL file content-addressed and describes its columns", async () => {
    const res = await POST(multipart(jsonl, "mine.jsonl"));
    expect(res.status).toBe(201);
    const info = (await res.json()) as UploadInfo;
    created.push(join(process.cwd(), info.path));
    expect(info).toMatchObject({
      fileName: "mine.jsonl",
      format: "jsonl",
      rows: 2,
      columns: ["uid", "prompt", "gold", "passage", "extra"],
      suggested: { id_field: "uid", question_field: "prompt", answer_field: "gold", context_field: "passage" },
    });
    expect(info.path).toBe(`.skillopt/uploads/${info.sha256}.jsonl`);
    expect(info.preview[1]).toEqual({ uid: "b", prompt: "Q2?", gold: '["y","z"]', passage: "q", extra: "1" });
    expect(readFileSync(join(process.cwd(), info.path), "utf8")).toBe(jsonl);
  });

  it("answers 422 naming the field for a file that is not JSONL/CSV, a broken line or a bad body", async () => {
    const wrongType = await POST(multipart("a,b\n1,2", "data.txt"));
    expect(wrongType.status).toBe(422);
    expect(await wrongType.json()).toEqual({
      error: { code: "INVALID_REQUEST", message: "file: 'data.txt' is not a .jsonl or .csv file", field: "file" },
    });
    const broken = await POST(multipart('{"q": 1}\n{"q": ', "broken.jsonl"));
    expect(((await broken.json()) as { error: { message: string } }).error.message).toBe(
      "file: broken.jsonl: line 2 is not valid JSON",
    );
    const notMultipart = await POST(request("{}", { "content-type": "application/json" }));
    expect(notMultipart.status).toBe(422);
    expect(((await notMultipart.json()) as { error: { field: string } }).error.field).toBe("file");
  });

  it("refuses files over the size limit with 413 naming the limit, declared or streamed without a length", async () => {
    const res = await POST(request("x", { "content-length": String(Math.round(23.4 * 1024 * 1024)) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: "PAYLOAD_TOO_LARGE", message: "file: the upload is 23.4 MB; the limit is 20 MB", field: "file" },
    });
    const chunked = await POST(streamedUpload(MAX_UPLOAD_BYTES + 1024 * 1024));
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: { message: string } }).error.message).toBe(
      "file: the upload is over the 20 MB limit",
    );
    expect(() =>
      storeDataset({ bytes: new Uint8Array(MAX_UPLOAD_BYTES + 1), fileName: "big.csv", rootDir: root }),
    ).toThrow("file: 'big.csv' is 20.1 MB; the limit is 20 MB");
  });

  it("stores a file just under 20 MB", async () => {
    const line = `{"question": "${"q".repeat(1000)}", "answer": "a"}\n`;
    const text = line.repeat(Math.floor((MAX_UPLOAD_BYTES - 1024) / line.length));
    const dir = mkdtempSync(join(tmpdir(), "uploads-big-"));
    try {
      const info = await uploadDataset(multipart(text, "big.jsonl"), dir);
      expect(info.bytes).toBeGreaterThan(MAX_UPLOAD_BYTES - 2048);
      expect(statSync(join(dir, info.path)).size).toBe(info.bytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a deeply nested JSONL row with 422 naming the line and the limit, and stores nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "uploads-deep-"));
    const deep = `{"question": "q", "meta": ${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const res = await uploadDataset(multipart(`{"question": "ok"}\n\n${deep}\n`, "deep.jsonl"), dir).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(res?.status).toBe(422);
    expect(res?.message).toBe("file: deep.jsonl: line 3 nests deeper than 64 levels (under 'meta.0.0.0.0.0.0.0')");
    expect(existsSync(join(dir, ".skillopt"))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("storeDataset", () => {
  it("reads CSV, names a ragged row's line and refuses empty or non-UTF-8 files", async () => {
    const info = await uploadDataset(multipart("Question,Answer\nWhat?,that\n", "qa.csv"), root);
    expect(info).toMatchObject({
      rows: 1,
      columns: ["Question", "Answer"],
      suggested: { question_field: "Question", answer_field: "Answer", id_field: "", context_field: "" },
    });
    expect(existsSync(join(root, info.path))).toBe(true);
    expect(() =>
      storeDataset({ bytes: new TextEncoder().encode("a,b\n1,2,3\n"), fileName: "r.csv", rootDir: root }),
    ).toThrow(/^file: r\.csv: not valid CSV \(line 2/);
    expect(() => storeDataset({ bytes: new TextEncoder().encode("\n\n"), fileName: "e.jsonl", rootDir: root })).toThrow(
      "file: 'e.jsonl' has no rows",
    );
    expect(() => storeDataset({ bytes: new Uint8Array([0xff, 0xfe, 0x00]), fileName: "b.csv", rootDir: root })).toThrow(
      "file: 'b.csv' is not UTF-8 text",
    );
    expect(() =>
      storeDataset({ bytes: new TextEncoder().encode("[1,2]\n"), fileName: "l.jsonl", rootDir: root }),
    ).toThrow("file: l.jsonl: item 0 is not a JSON object");
  });

  it("suggests each column at most once", () => {
    expect(suggestMapping(["Q", "A"])).toEqual({
      id_field: "",
      question_field: "Q",
      answer_field: "A",
      context_field: "",
    });
    expect(suggestMapping(["text", "label"])).toEqual({
      id_field: "",
      question_field: "",
      answer_field: "label",
      context_field: "text",
    });
  });
});

import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../contracts/datasets";
import { AppError } from "../errors";
import { ENVELOPE_BYTES } from "../runs/uploads";
import { findTooDeep, jsonBody, limitText, MAX_JSON_BODY_BYTES, readCapped, sizeText } from "./body";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1:7860/api/runs", { method: "POST", body, headers });

/** A body streamed in 1 MB chunks with no Content-Length, as a chunked upload or a proxy-truncated one arrives. */
function streamed(totalBytes: number): Request {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= totalBytes) return c.close();
      const n = Math.min(1024 * 1024, totalBytes - sent);
      sent += n;
      c.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
  return new Request("http://127.0.0.1:7860/api/runs", { method: "POST", body, duplex: "half" } as RequestInit);
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("sizes in messages", () => {
  it("round sizes up so one byte over never reads as the limit", () => {
    const limit = 20 * 1024 * 1024;
    expect(sizeText(limit + 1, limit)).toBe("20.1 MB");
    expect(sizeText(23.4 * 1024 * 1024 + 300, limit)).toBe("23.4 MB");
    expect(sizeText(2.04 * 1024 * 1024, 2 * 1024 * 1024)).toBe("2.1 MB");
    expect(limitText(20 * 1024 * 1024)).toBe("20 MB");
    expect(limitText(512 * 1024)).toBe("0.5 MB");
  });
});

describe("readCapped", () => {
  it("refuses a declared length over the cap without reading, and a streamed body once it passes the cap", async () => {
    expect(await readCapped(post("x", { "content-length": "999" }), 10)).toEqual({ ok: false, size: 999 });
    expect(await readCapped(streamed(3 * 1024 * 1024), 2 * 1024 * 1024)).toEqual({ ok: false, size: null });
    const ok = await readCapped(streamed(1500), 2000);
    expect(ok.ok && ok.bytes.byteLength).toBe(1500);
    expect(await readCapped(new Request("http://x/"), 10)).toEqual({ ok: true, bytes: new Uint8Array(0) });
  });
});

describe("jsonBody", () => {
  it("parses a JSON body", async () => {
    expect(await jsonBody(post('{"preset":"a.yaml","overrides":{"x":[1,{"y":2}]}}'))).toEqual({
      preset: "a.yaml",
      overrides: { x: [1, { y: 2 }] },
    });
  });

  it("a body over the limit is a 413 naming the limit (not 'not valid JSON'), declared or streamed", async () => {
    const big = JSON.stringify({ preset: "searchqa/sample.yaml", skill: "x".repeat(20 * 1024 * 1024) });
    const declared = await failure(
      jsonBody(post(big, { "content-type": "application/json", "content-length": String(Buffer.byteLength(big)) }), {
        hint: " (the skill may be at most 200 KB)",
      }),
    );
    expect(declared.status).toBe(413);
    expect(declared.field).toBe("body");
    expect(declared.message).toBe(
      "body: the request body is 20.0 MB; the limit is 2 MB (the skill may be at most 200 KB)",
    );
    const chunked = await failure(jsonBody(streamed(MAX_JSON_BODY_BYTES + 1)));
    expect(chunked.status).toBe(413);
    expect(chunked.message).toBe("body: the request body is over the 2 MB limit");
  });

  it("malformed JSON is a 422 on the body", async () => {
    const err = await failure(jsonBody(post("{not json")));
    expect([err.status, err.field, err.message]).toEqual([422, "body", "body: the request body is not valid JSON"]);
  });

  it("JSON nested deeper than 64 levels is a 422 naming the top-level field and the limit", async () => {
    expect(await jsonBody(post(`{"overrides":${nested(63)}}`))).toBeTruthy();
    const err = await failure(jsonBody(post(`{"preset":"a.yaml","overrides":${nested(64)}}`)));
    expect([err.status, err.field, err.message]).toEqual([422, "overrides", "overrides: nested deeper than 64 levels"]);
    const top = await failure(jsonBody(post(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)));
    expect([top.status, top.field, top.message]).toEqual([422, "0", "0: nested deeper than 64 levels"]);
  });
});

describe("findTooDeep", () => {
  it("measures depth iteratively and names the path", () => {
    expect(findTooDeep(1, 0)).toBeNull();
    expect(findTooDeep([], 0)).toEqual([]);
    expect(findTooDeep({ a: [{ b: 1 }] }, 2)).toEqual(["a", 0]);
    expect(findTooDeep({ a: [{ b: 1 }] }, 3)).toBeNull();
    expect(findTooDeep(JSON.parse(nested(100_000)), 64)).toHaveLength(8);
  });
});

describe("next.config.mjs", () => {
  it("lets a full-size upload through the proxy, and only a little more", async () => {
    // The specifier is widened to string because the .mjs config has no type declarations.
    const nextConfig = (
      (await import("../../next.config.mjs" as string)) as {
        default: { experimental: { proxyClientMaxBodySize: number } };
      }
    ).default;
    const limit = nextConfig.experimental.proxyClientMaxBodySize;
    expect(limit).toBeGreaterThan(MAX_UPLOAD_BYTES + ENVELOPE_BYTES);
    expect(limit).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + 2 * 1024 * 1024);
  });
});

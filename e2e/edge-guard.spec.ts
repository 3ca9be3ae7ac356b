/**
 * The HTTP edge over real sockets against the production server: DNS rebinding (a foreign Host) and
 * opaque or foreign Origins are refused before any handler runs, and bodies up to the README's 20 MB go
 * through Next's proxy while larger ones get a 413 that names the limit.
 */
import { rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { testDb } from "./helpers";
import { multipartFile, rawRequest } from "./raw-http";

const PORT = Number(process.env.E2E_PORT ?? 7871);
const HOST = `127.0.0.1:${PORT}`;
const createBody = JSON.stringify({
  preset: "searchqa/sample.yaml",
  name: "rebinding attempt",
  overrides: { "train.num_epochs": 1 },
});
const json = (body: string) => JSON.parse(body) as { error: { code: string; message: string; field?: string } };

async function runCount(): Promise<number> {
  const db = testDb();
  try {
    return await db.run.count();
  } finally {
    await db.$disconnect();
  }
}

test("[SECURITY]: a foreign Host (DNS rebinding) cannot read or create runs; Origin null is refused; our own Host works", async () => {
  const before = await runCount();
  const read = await rawRequest({ port: PORT, path: "/api/runs", headers: { host: `evil.example:${PORT}` } });
  expect(read.status).toBe(403);
  expect(json(read.body).error).toMatchObject({
    code: "FORBIDDEN",
    message: expect.stringContaining(`'evil.example:${PORT}'`),
  });
  expect(read.body).not.toContain('"runs"');

  const create = await rawRequest({
    port: PORT,
    path: "/api/runs",
    method: "POST",
    body: createBody,
    headers: {
      host: `evil.example:${PORT}`,
      origin: `http://evil.example:${PORT}`,
      "content-type": "application/json",
    },
  });
  expect(create.status).toBe(403);

  const opaque = await rawRequest({
    port: PORT,
    path: "/api/runs",
    method: "POST",
    body: createBody,
    headers: { host: HOST, origin: "null", "content-type": "application/json" },
  });
  expect(opaque.status).toBe(403);
  expect(json(opaque.body).error.message).toMatch(/Origin: null/);
  const malformed = await rawRequest({
    port: PORT,
    path: "/api/runs",
    method: "POST",
    body: createBody,
    headers: { host: HOST, origin: "http://[bad", "content-type": "application/json" },
  });
  expect(malformed.status).toBe(403);
  const page = await rawRequest({
    port: PORT,
    path: "/runs/new",
    headers: { host: "evil.example", accept: "text/html" },
  });
  expect(page.status).toBe(403);
  expect(page.headers["content-type"]).toMatch(/text\/html/);
  expect(await runCount()).toBe(before);

  for (const host of [HOST, `localhost:${PORT}`, `[::1]:${PORT}`]) {
    const ok = await rawRequest({ port: PORT, path: "/api/runs", headers: { host } });
    expect(ok.status, host).toBe(200);
  }
  const home = await rawRequest({ port: PORT, path: "/", headers: { host: HOST, accept: "text/html" } });
  expect(home.status).toBe(200);
});

test("[SECURITY]: a 20 MB upload goes through end to end; a 23.4 MB one is a 413 naming the limit, declared or chunked", async () => {
  const line = Buffer.from(`{"question": "${"q".repeat(2000)}", "answer": "a"}\n`);
  const near = Buffer.concat(Array.from({ length: Math.floor((20 * 1024 * 1024 - 4096) / line.length) }, () => line));
  const ok = multipartFile("near-limit.jsonl", near);
  const stored = await rawRequest({
    port: PORT,
    path: "/api/uploads",
    method: "POST",
    body: ok.body,
    headers: { host: HOST, origin: `http://${HOST}`, "content-type": ok.contentType },
  });
  expect(stored.status, stored.body.slice(0, 300)).toBe(201);
  const info = JSON.parse(stored.body) as { path: string; bytes: number; rows: number };
  expect(info).toMatchObject({ fileName: "near-limit.jsonl", bytes: near.length, rows: near.length / line.length });
  rmSync(info.path, { force: true });

  const big = multipartFile("big.csv", Buffer.alloc(Math.round(23.4 * 1024 * 1024), 0x61));
  const refused = await rawRequest({
    port: PORT,
    path: "/api/uploads",
    method: "POST",
    body: big.body,
    headers: { host: HOST, "content-type": big.contentType },
  });
  expect(refused.status).toBe(413);
  expect(json(refused.body).error).toEqual({
    code: "PAYLOAD_TOO_LARGE",
    field: "file",
    message: "file: the upload is 23.4 MB; the limit is 20 MB",
  });

  // Without Content-Length, Next's proxy cuts the body at its own limit; the route still sees "too large".
  const chunked = await rawRequest({
    port: PORT,
    path: "/api/uploads",
    method: "POST",
    headers: { host: HOST, "content-type": big.contentType },
    body: async (write) => {
      for (let at = 0; at < big.body.length; at += 1024 * 1024) await write(big.body.subarray(at, at + 1024 * 1024));
    },
  });
  expect(chunked.status).toBe(413);
  expect(json(chunked.body).error.message).toBe("file: the upload is over the 20 MB limit");
});

test("[SECURITY]: a 20 MB skill is a 413 naming the limit and a deeply nested body a 422; neither creates a run", async () => {
  const before = await runCount();
  const huge = JSON.stringify({ preset: "searchqa/sample.yaml", skill: "x".repeat(20 * 1024 * 1024) });
  const tooLarge = await rawRequest({
    port: PORT,
    path: "/api/runs",
    method: "POST",
    body: huge,
    headers: { host: HOST, "content-type": "application/json" },
  });
  expect(tooLarge.status).toBe(413);
  expect(json(tooLarge.body).error.message).toBe(
    "body: the request body is 20.0 MB; the limit is 2 MB (the skill may be at most 200 KB)",
  );

  const deep = `{"preset":"searchqa/sample.yaml","overrides":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
  const nested = await rawRequest({
    port: PORT,
    path: "/api/runs",
    method: "POST",
    body: deep,
    headers: { host: HOST, "content-type": "application/json" },
  });
  expect(nested.status).toBe(422);
  expect(json(nested.body).error).toMatchObject({
    field: "overrides",
    message: "overrides: nested deeper than 64 levels",
  });
  expect(await runCount()).toBe(before);
});

/**
 * Small node:http helpers for the mock server: body reading with a size cap, JSON replies, API keys in
 * any of the three headers the SDKs use, and a sleep that ends early when the client goes away.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLargeError(`request body exceeds ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Writes a complete response unless the client is already gone. */
export function sendText(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): boolean {
  if (res.destroyed || res.writableEnded) return false;
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
  return true;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): boolean {
  return sendText(res, status, JSON.stringify(body), headers);
}

/**
 * Keys a request presents: `Authorization: Bearer` (openai, @anthropic-ai/sdk 1.x), `x-api-key`
 * (Anthropic's documented header and the 0.x SDKs) and `api-key` (Azure OpenAI).
 */
export function presentedKeys(req: IncomingMessage): string[] {
  const keys: string[] = [];
  const auth = req.headers.authorization;
  const bearer = typeof auth === "string" ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  if (bearer?.[1]) keys.push(bearer[1].trim());
  for (const name of ["x-api-key", "api-key"]) {
    const v = req.headers[name];
    if (typeof v === "string" && v.trim() !== "") keys.push(v.trim());
  }
  return keys;
}

/** Resolves after `ms`, or early with `false` when `signal` aborts first. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Test helpers for the backends (imported by tests only): a tiny node:http stub that answers scripted
 * replies and records what the SDKs sent, a fake sleep, and a policy with instant retries.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { RunConfigSchema, type RunConfig, type RunConfigInput } from "../contracts/run-config";
import { RunPolicy } from "./policy/run-policy";

export interface StubReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is (to send broken bodies). */
  body?: unknown;
  /** Never answer (the client has to give up). */
  hang?: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export interface Stub {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a stub that answers `replies` in order (the last one repeats); closed after each test. */
export function useStub(): (replies: StubReply[] | ((req: SeenRequest) => StubReply)) => Promise<Stub> {
  const open: Stub[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (replies) => {
    const seen: SeenRequest[] = [];
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        const r: SeenRequest = {
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
        };
        seen.push(r);
        const reply =
          typeof replies === "function" ? replies(r) : replies[Math.min(seen.length - 1, replies.length - 1)]!;
        if (reply.hang) return;
        const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const stub: Stub = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
    open.push(stub);
    return stub;
  };
}

/** A Chat Completions answer. */
export function chatReply(text: string, usage = { prompt_tokens: 10, completion_tokens: 5 }): StubReply {
  return {
    body: {
      id: "c1",
      object: "chat.completion",
      created: 0,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

export function config(input: RunConfigInput = {}): RunConfig {
  return RunConfigSchema.parse(input);
}

/** Records the waits instead of sleeping. */
export function fakeSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

/** A run policy whose retries wait no real time (`waits` lists what they would have waited). */
export function instantPolicy(
  cfg: RunConfig,
  extra: { rootDir?: string } = {},
): { policy: RunPolicy; waits: number[] } {
  const s = fakeSleep();
  return { policy: new RunPolicy(cfg, { ...extra, retry: { sleep: s.sleep, random: () => 0.5 } }), waits: s.waits };
}

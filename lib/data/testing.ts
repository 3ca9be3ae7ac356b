/**
 * Test helpers for lib/data (only tests import this file): a local HTTP server on port 0 that serves a
 * fixture folder laid out like the upstream URL paths, plus in-memory overrides, the Hugging Face tree
 * API for listings, scripted failures, and a tiny tar writer.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** A response the server gives instead of a file: a status, optionally only for the first N requests. */
export type Fault = { status: number; times?: number } | { hang: true };

/** A running fixture server. */
export interface FixtureServer {
  url: string;
  /** Paths requested so far (without the query). */
  requests: string[];
  /** Authorization headers seen, by path. */
  auth: Map<string, string>;
  close(): Promise<void>;
}

function walk(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const rel = `${prefix}/${name}`;
    return statSync(full).isDirectory() ? walk(full, rel) : [rel];
  });
}

/** Starts a server over `root` (URL path = file path under it) and `files` (URL path → body or fault). */
export async function startFixtureServer(opts: {
  root?: string;
  files?: Record<string, string | Uint8Array | Fault>;
  /** Paths that need `authorization: Bearer <token>`, answered 401 otherwise. */
  gated?: { prefix: string; token: string };
}): Promise<FixtureServer> {
  const files = new Map<string, string | Uint8Array | Fault>();
  for (const rel of opts.root ? walk(opts.root) : []) files.set(rel, readFileSync(path.join(opts.root!, rel)));
  for (const [k, v] of Object.entries(opts.files ?? {})) files.set(k, v);
  const served = new Map<string, number>();
  const requests: string[] = [];
  const auth = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(p);
    if (req.headers.authorization) auth.set(p, req.headers.authorization);
    if (opts.gated && p.startsWith(opts.gated.prefix) && req.headers.authorization !== `Bearer ${opts.gated.token}`) {
      res.writeHead(req.headers.authorization ? 403 : 401).end("gated");
      return;
    }
    const tree = /^\/api\/datasets\/(.+?\/.+?)\/tree\/([^/]+)\/(.*)$/.exec(p);
    if (tree) {
      const base = `/datasets/${tree[1]}/resolve/${tree[2]}/`;
      const dir = tree[3]!.replace(/\/$/, "");
      const list = [...files.keys()]
        .filter((k) => k.startsWith(`${base}${dir}/`) && !k.slice(base.length + dir.length + 1).includes("/"))
        .map((k) => ({ type: "file", path: k.slice(base.length) }));
      res.writeHead(list.length ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(list));
      return;
    }
    const body = files.get(p);
    if (body === undefined) {
      res.writeHead(404).end("not found");
      return;
    }
    if (typeof body === "object" && "hang" in body) {
      res.writeHead(200, { "content-length": "1000" });
      res.write("partial");
      return;
    }
    if (typeof body === "object" && !(body instanceof Uint8Array)) {
      const n = (served.get(p) ?? 0) + 1;
      served.set(p, n);
      if (body.times === undefined || n <= body.times) {
        res.writeHead(body.status).end(`status ${body.status}`);
        return;
      }
      const real = opts.root ? path.join(opts.root, p) : "";
      if (real && existsSync(real)) {
        res.writeHead(200).end(readFileSync(real));
        return;
      }
      res.writeHead(404).end("not found");
      return;
    }
    const data = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
    res.writeHead(200, { "content-length": String(data.length) }).end(data);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    auth,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A gzipped ustar archive of the given files (path → content). */
export function makeTarGz(entries: Record<string, string | Uint8Array>): Uint8Array {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(entries)) {
    const data = typeof content === "string" ? Buffer.from(content) : Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(name.slice(0, 100), 0, "utf8");
    header.write("0000644\0", 100);
    header.write("0000000\0", 108);
    header.write("0000000\0", 116);
    header.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
    header.write("00000000000\0", 136);
    header.write("        ", 148);
    header.write("0", 156);
    header.write("ustar\0", 257);
    header.write("00", 263);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return new Uint8Array(gzipSync(Buffer.concat(blocks)));
}

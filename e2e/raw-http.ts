/**
 * Plain HTTP/1.1 requests with any Host and Origin header, for the guard tests: browsers and Playwright's
 * request fixture set Host themselves, node's http.request sends exactly what it is told.
 */
import { request } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawRequest {
  port: number;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  /** Sent as is; a function body is streamed in chunks without Content-Length (chunked encoding). */
  body?: string | Buffer | ((write: (chunk: Buffer) => Promise<void>) => Promise<void>);
}

export function rawRequest(opts: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...opts.headers };
    if (typeof opts.body === "string" || Buffer.isBuffer(opts.body))
      headers["content-length"] ??= String(Buffer.byteLength(opts.body));
    const req = request(
      {
        host: "127.0.0.1",
        port: opts.port,
        path: opts.path,
        method: opts.method ?? "GET",
        headers,
        setHost: headers.host === undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    // The server may answer (413) and close before a large body is fully sent; the answer is what counts.
    req.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "EPIPE" || err.code === "ECONNRESET" ? undefined : reject(err),
    );
    const body = opts.body;
    if (typeof body === "function") {
      const write = (chunk: Buffer) => new Promise<void>((ok) => (req.write(chunk) ? ok() : req.once("drain", ok)));
      void body(write).then(() => req.end());
    } else {
      req.end(body);
    }
  });
}

/** A multipart/form-data body with one `file` field. */
export function multipartFile(fileName: string, content: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----skillopt${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, content, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

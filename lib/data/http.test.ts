import { describe, expect, it } from "vitest";
import { applyMirror, checkMirror, createDownloader, type FetchLike } from "./http";

const noSleep = () => Promise.resolve();

describe("applyMirror", () => {
  it("replaces scheme and host, keeping the mirror's path prefix", () => {
    expect(applyMirror("https://huggingface.co/datasets/a/b/resolve/main/f.csv", "http://127.0.0.1:9/hf/")).toBe("http://127.0.0.1:9/hf/datasets/a/b/resolve/main/f.csv");
    expect(applyMirror("https://raw.githubusercontent.com/x/y/main/data/z.json?x=1", "https://proxy.example")).toBe("https://proxy.example/x/y/main/data/z.json?x=1");
    expect(applyMirror("https://huggingface.co/a", undefined)).toBe("https://huggingface.co/a");
    expect(applyMirror("https://huggingface.co/a", " ")).toBe("https://huggingface.co/a");
  });

  it("rejects a mirror that is not an http(s) URL", () => {
    expect(() => checkMirror("127.0.0.1:80")).toThrow(/--mirror: (not a URL|must be an http)/);
    expect(() => checkMirror("ftp://x", "SKILLOPT_DATA_MIRROR")).toThrow("SKILLOPT_DATA_MIRROR: must be an http(s) URL, got 'ftp://x'");
    expect(checkMirror("http://localhost:1/")).toBe("http://localhost:1/");
  });
});

describe("createDownloader with an injected fetch", () => {
  it("sends the HF token only to Hugging Face and reports progress", async () => {
    const seen: Array<[string, string | undefined]> = [];
    const fetch: FetchLike = async (url, init) => {
      seen.push([url, init?.headers?.authorization]);
      return new Response("abcdef", { headers: { "content-length": "6" } });
    };
    const progress: number[] = [];
    const dl = createDownloader({ fetch, hfToken: "t0k", onProgress: (p) => progress.push(p.received) });
    expect(await dl.text("https://huggingface.co/datasets/x/resolve/main/a.json")).toBe("abcdef");
    await dl.text("https://raw.githubusercontent.com/m/s/main/data/a.json");
    expect(seen).toEqual([["https://huggingface.co/datasets/x/resolve/main/a.json", "Bearer t0k"], ["https://raw.githubusercontent.com/m/s/main/data/a.json", undefined]]);
    expect(progress.at(-1)).toBe(6);
  });

  it("retries connection errors, 429 and 5xx with doubling waits, never 4xx", async () => {
    const replies: Array<Response | Error> = [new TypeError("fetch failed"), new Response("", { status: 429 }), new Response("", { status: 500 }), new Response("[1]")];
    const waits: number[] = [];
    const dl = createDownloader({ fetch: async () => { const r = replies.shift()!; if (r instanceof Error) throw r; return r; }, sleep: async (ms) => void waits.push(ms) });
    expect(await dl.json("https://huggingface.co/x")).toEqual([1]);
    expect(waits).toEqual([500, 1000, 2000]);
    let calls = 0;
    const four = createDownloader({ fetch: async () => (calls++, new Response("", { status: 400 })), sleep: noSleep });
    await expect(four.bytes("https://huggingface.co/y")).rejects.toThrow("HTTP 400 for https://huggingface.co/y");
    expect(calls).toBe(1);
  });

  it("a body shorter than its content-length is retried, then reported", async () => {
    const dl = createDownloader({ fetch: async () => new Response("abc", { headers: { "content-length": "10" } }), sleep: noSleep, attempts: 2 });
    await expect(dl.bytes("https://huggingface.co/z")).rejects.toThrow("download interrupted (connection closed after 3 of 10 bytes) for https://huggingface.co/z (gave up after 2 attempts)");
  });

  it("invalid JSON names the URL", async () => {
    const dl = createDownloader({ fetch: async () => new Response("<html>"), mirror: "http://m.test" });
    await expect(dl.json("https://raw.githubusercontent.com/a.json")).rejects.toThrow(/^not valid JSON: http:\/\/m\.test\/a\.json/);
  });
});

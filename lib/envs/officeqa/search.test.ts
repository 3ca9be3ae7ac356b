import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RolloutInput } from "../../engine/ports";
import { buildRunConfig, fakeClient } from "../test-helpers";
import { createOfficeQaEnv } from "./index";
import {
  DEFAULT_SEARCH_URL,
  normaliseSearchResults,
  parseSearchQueries,
  searchOnce,
  type SearchSettings,
} from "./search";

interface Seen {
  body: Record<string, unknown>;
  auth: string | undefined;
}

let server: Server;
let url = "";
const seen: Seen[] = [];
/** Scripted answers per query text: a status code sequence (last repeats), then the JSON body. */
const script = new Map<string, { statuses: number[]; body: unknown }>();

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      const body = JSON.parse(data) as Record<string, unknown>;
      seen.push({ body, auth: req.headers.authorization });
      const entry = script.get(String(body.query)) ?? { statuses: [200], body: { results: [] } };
      const status = entry.statuses.length > 1 ? (entry.statuses.shift() as number) : (entry.statuses[0] as number);
      if (status === 0) return void req.socket.destroy();
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(status === 200 ? entry.body : { error: "nope" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sleeps: number[] = [];
const deps = {
  fetch: (...args: Parameters<typeof fetch>) => fetch(...args),
  sleep: async (ms: number) => void sleeps.push(ms),
};
const settings = (over: Partial<SearchSettings> = {}): SearchSettings => ({
  url,
  auth: "Bearer abc",
  provider: "duckduckgo",
  maxResults: 2,
  timeoutSec: 5,
  maxQueriesPerTurn: 2,
  ...over,
});

describe("parseSearchQueries", () => {
  it("reads JSON lists, objects, strings, lines and separators, deduplicated", () => {
    expect(parseSearchQueries('<search_queries>["a", "b", "a"]</search_queries>')).toEqual(["a", "b"]);
    expect(parseSearchQueries('<search_queries>{"queries": ["x"]}</search_queries>')).toEqual(["x"]);
    expect(parseSearchQueries('<search_queries>{"query": "y"}</search_queries>')).toEqual(["y"]);
    expect(parseSearchQueries('<search_queries>"z"</search_queries>')).toEqual(["z"]);
    expect(parseSearchQueries("<search_queries>\n- first one\n- second one\n</search_queries>")).toEqual([
      "first one",
      "second one",
    ]);
    expect(parseSearchQueries("<search_queries>a; b, c</search_queries>")).toEqual(["a", "b", "c"]);
    expect(parseSearchQueries("no block here")).toBeNull();
    expect(parseSearchQueries("<search_queries>  </search_queries>")).toEqual([]);
  });
});

describe("normaliseSearchResults", () => {
  it("finds the list under the usual keys and maps field synonyms", () => {
    expect(normaliseSearchResults({ webPages: { value: [{ name: "T", displayUrl: "u", description: "d" }] } })).toEqual(
      [{ title: "T", url: "u", snippet: "d" }],
    );
    expect(normaliseSearchResults({ organic_results: [{ title: "A", link: "l", snippet: "s" }, 3] })).toEqual([
      { title: "A", url: "l", snippet: "s" },
    ]);
    expect(normaliseSearchResults([{ heading: "H", href: "h", content: "c" }])).toEqual([
      { title: "H", url: "h", snippet: "c" },
    ]);
    expect(normaliseSearchResults({ nothing: true })).toEqual([]);
  });
});

describe("searchOnce against a local server", () => {
  it("POSTs query, max_num_results and provider with the raw Authorization header", async () => {
    script.set("public debt 1945", {
      statuses: [200],
      body: {
        results: [{ title: "Bulletin", url: "https://x", snippet: "258,682 million" }, { title: "b" }, { title: "c" }],
      },
    });
    const hits = await searchOnce("public debt 1945", settings(), deps);
    expect(hits).toEqual([
      { title: "Bulletin", url: "https://x", snippet: "258,682 million" },
      { title: "b", url: "", snippet: "" },
    ]);
    expect(seen.at(-1)).toEqual({
      body: { query: "public debt 1945", max_num_results: 2, provider: "duckduckgo" },
      auth: "Bearer abc",
    });
  });

  it("retries 429/5xx and dropped connections with 1 s·2^k backoff, then succeeds", async () => {
    sleeps.length = 0;
    script.set("flaky", { statuses: [429, 503, 0, 200], body: { items: [{ title: "ok" }] } });
    expect(await searchOnce("flaky", settings(), deps)).toEqual([{ title: "ok", url: "", snippet: "" }]);
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it("gives up after 5 attempts, and at once on a 4xx that retrying cannot fix", async () => {
    sleeps.length = 0;
    script.set("down", { statuses: [500], body: null });
    expect(await searchOnce("down", settings(), deps)).toBe("search failed after 5 attempts: HTTP 500");
    expect(sleeps).toEqual([1000, 2000, 4000, 8000]);
    script.set("forbidden", { statuses: [403], body: null });
    expect(await searchOnce("forbidden", settings(), deps)).toBe("search failed: HTTP 403");
  });
});

describe("custom_search rollout", () => {
  const item = {
    id: "s1",
    question: "What was the public debt in June 1945, in millions?",
    answers: ["258682"],
    ground_truth: "258682",
    task_type: "hard",
    source_files: [],
    source_docs: [],
  };

  it("runs queries → results → answer, keeping at most max_queries_per_turn queries", async () => {
    script.set("q1", {
      statuses: [200],
      body: { results: [{ title: "June 1945 bulletin", url: "https://t/1945", snippet: "gross debt 258,682" }] },
    });
    const client = fakeClient((_, n) =>
      n === 0 ? '<search_queries>["q1", "q2", "q3"]</search_queries>' : "<answer>258,682 million</answer>",
    );
    const config = buildRunConfig({
      name: "officeqa",
      split_mode: "split_dir",
      search_mode: "custom",
      search_api_url: url,
      max_queries_per_turn: 2,
      search_auth_env: "MY_AUTH",
    });
    const env = createOfficeQaEnv(config, undefined, { rootDir: "/nonexistent", vars: { MY_AUTH: "Token t" } }, deps);
    const input: RolloutInput = { item, skill: "", client, phase: "test", seed: 0, useEvalFeedback: false };
    const t = await env.rollout(input);
    expect(t).toMatchObject({
      status: "ok",
      hard: 1,
      nTurns: 2,
      extras: { search_mode: "custom_search", search_queries: ["q1", "q2"] },
    });
    expect(client.calls[0]?.system).toContain("<search_queries>");
    const results = String(client.calls[1]?.messages.at(-1)?.content);
    expect(results).toContain(
      '<search_results query="q1">\n1. June 1945 bulletin — https://t/1945\n   gross debt 258,682\n</search_results>',
    );
    expect(results).toContain('<search_results query="q2">\nno results\n</search_results>');
    expect(seen.at(-1)?.auth).toBe("Token t");
  });

  it("fails a reply with neither queries nor answer", async () => {
    const client = fakeClient(() => "hmm");
    const env = createOfficeQaEnv(
      buildRunConfig({ name: "officeqa", search_mode: "custom_search", search_api_url: url }),
      undefined,
      { rootDir: "/", vars: {} },
      deps,
    );
    const t = await env.rollout({ item, skill: "", client, phase: "test", seed: 0, useEvalFeedback: false });
    expect(t.failReason).toBe("neither search queries nor answer in round 1 (expected ['258682'])");
  });

  it("uses OFFICEQA_SEARCH_API_URL, else the local default", async () => {
    const env = createOfficeQaEnv(
      buildRunConfig({ name: "officeqa", search_mode: "custom_search" }),
      undefined,
      { rootDir: "/", vars: { OFFICEQA_SEARCH_API_URL: url } },
      deps,
    );
    const client = fakeClient((_, n) => (n === 0 ? "<search_queries>viaenv</search_queries>" : "<answer>1</answer>"));
    await env.rollout({ item, skill: "", client, phase: "test", seed: 0, useEvalFeedback: false });
    expect(seen.at(-1)?.body.query).toBe("viaenv");
    expect(DEFAULT_SEARCH_URL).toBe("http://localhost:8080/search_tool/search");
  });
});

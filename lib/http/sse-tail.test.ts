import { describe, expect, it } from "vitest";
import { parseStreamFrame } from "../contracts/stored-events-stream";
import { parseCursor, tailEvents, type TailRow } from "./sse-tail";

function fakeDeps(rows: TailRow[], opts: { finishedAfter?: number } = {}) {
  let t = 0;
  let reads = 0;
  return {
    reads: () => reads,
    deps: {
      read: async (after: number) => {
        reads += 1;
        return rows.filter(
          (r) =>
            r.seq > after &&
            r.seq <= (opts.finishedAfter === undefined ? Infinity : Math.min(opts.finishedAfter, reads * 2)),
        );
      },
      finished: async () => opts.finishedAfter !== undefined && reads * 2 >= rows.length,
      wait: async (ms: number) => void (t += ms),
      now: () => t,
    },
  };
}

const row = (seq: number): TailRow => ({
  seq,
  type: "stepCommitted",
  payload: JSON.stringify({ step: seq }),
  createdAt: new Date(0),
});

async function collect(gen: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const s of gen) out.push(s);
  return out;
}

describe("tailEvents", () => {
  it("sends rows after the cursor in order with their seq as id, then ends when the run is finished", async () => {
    const { deps } = fakeDeps([row(1), row(2), row(3), row(4)], { finishedAfter: 4 });
    const out = await collect(tailEvents(deps, { cursor: 1, signal: new AbortController().signal }));
    const ids = out.flatMap((s) => [...s.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])));
    expect(ids).toEqual([2, 3, 4]);
    expect(out.at(-1)).toBe("event: end\ndata: {}\n\n");
  });

  it("sends keep-alive comments while idle and ends after maxMs so the browser reconnects", async () => {
    const { deps } = fakeDeps([]);
    const out = await collect(
      tailEvents(deps, {
        cursor: 0,
        signal: new AbortController().signal,
        pollMs: 1000,
        keepAliveMs: 15_000,
        maxMs: 60_000,
      }),
    );
    expect(out.filter((s) => s === ": keep-alive\n\n").length).toBe(3);
    expect(out.some((s) => s.startsWith("event: end"))).toBe(false);
  });

  it("sends each row's stored payload unread: the browser parses it with the stored schema, a bad row included", async () => {
    const good = { type: "runCancelled", step: 2 };
    const rows: TailRow[] = [
      { seq: 1, type: "runCancelled", payload: JSON.stringify(good), createdAt: new Date(0) },
      { seq: 2, type: "runCancelled", payload: "{not json", createdAt: new Date(0) },
      { seq: 3, type: "runCancelled", payload: JSON.stringify({ type: "runCancelled" }), createdAt: new Date(0) },
    ];
    const { deps } = fakeDeps(rows, { finishedAfter: 3 });
    const out = await collect(tailEvents(deps, { cursor: 0, signal: new AbortController().signal }));
    const frames = out.flatMap((s) => [...s.matchAll(/^data: (.*)$/gm)].map((m) => m[1]!)).slice(0, 3);
    const parsed = frames.map((d) => parseStreamFrame(d));
    expect(parsed[0]).toMatchObject({ seq: 1, event: good, problem: null });
    expect(parsed[1]).toMatchObject({ seq: 2, event: null, problem: expect.stringMatching(/payload is not JSON/) });
    expect(parsed[2]).toMatchObject({ seq: 3, event: null, problem: expect.stringMatching(/field step/) });
  });

  it("stops when the client goes away", async () => {
    const ac = new AbortController();
    const { deps } = fakeDeps([]);
    ac.abort();
    const out = await collect(tailEvents(deps, { cursor: 0, signal: ac.signal }));
    expect(out).toEqual(["retry: 1000\n: connected\n\n"]);
  });

  it("reads the cursor from Last-Event-ID first, then ?cursor, ignoring garbage", () => {
    expect(parseCursor(new Request("http://x/e?cursor=5", { headers: { "last-event-id": "9" } }))).toBe(9);
    expect(parseCursor(new Request("http://x/e?cursor=5"))).toBe(5);
    expect(parseCursor(new Request("http://x/e?cursor=-1"))).toBe(0);
    expect(parseCursor(new Request("http://x/e?cursor=abc"))).toBe(0);
  });
});

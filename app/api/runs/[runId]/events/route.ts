import { RunIdSchema } from "@/lib/contracts/api";
import { listEventsAfter } from "@/lib/db/engine-events";
import { findRun, getRun } from "@/lib/db/runs";
import { handle } from "@/lib/http/errors";
import { parseCursor, tailEvents } from "@/lib/http/sse-tail";
import { SSE_HEADERS, streamOf } from "@/lib/http/sse";
import { waitForRun } from "@/lib/queue/wake";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const DONE = new Set(["succeeded", "failed", "cancelled"]);

export function GET(req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("run events", async () => {
    // Parsing and the existence check happen before the stream opens, so errors are plain 4xx.
    const id = RunIdSchema.parse((await params).runId);
    await getRun(id);
    const ac = new AbortController();
    req.signal.addEventListener("abort", () => ac.abort(), { once: true });
    const gen = tailEvents(
      {
        read: (seq) => listEventsAfter(id, seq),
        finished: async () => DONE.has((await findRun(id))?.status ?? "failed"),
        wait: (ms, signal) => waitForRun(id, ms, signal),
        now: () => Date.now(),
      },
      { cursor: parseCursor(req), signal: ac.signal },
    );
    return new Response(streamOf(gen, ac), { headers: SSE_HEADERS });
  });
}

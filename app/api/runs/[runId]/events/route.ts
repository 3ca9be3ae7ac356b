import { RunIdSchema } from "@/lib/contracts/api";
import { listEventsAfter } from "@/lib/db/engine-events";
import { findRunStatus, getRun } from "@/lib/db/runs";
import { handle } from "@/lib/http/errors";
import { parseCursor, tailEvents } from "@/lib/http/sse-tail";
import { SSE_HEADERS, streamOf } from "@/lib/http/sse";
import { watchRunNotices, type RunNotices } from "@/lib/queue/run-notices";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const DONE = new Set(["succeeded", "failed", "cancelled"]);

/** The tail, with the run's notice subscription released however the stream ends. */
async function* closing(gen: AsyncGenerator<string>, notices: RunNotices): AsyncGenerator<string> {
  try {
    yield* gen;
  } finally {
    notices.close();
  }
}

export function GET(req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("run events", async () => {
    // Parsing and the existence check happen before the stream opens, so errors are plain 4xx.
    const id = RunIdSchema.parse((await params).runId);
    await getRun(id);
    const ac = new AbortController();
    req.signal.addEventListener("abort", () => ac.abort(), { once: true });
    // Subscribed before the first read: a commit between that read and the first wait is not missed.
    const notices = await watchRunNotices(id);
    const gen = tailEvents(
      {
        read: (seq) => listEventsAfter(id, seq),
        finished: async () => DONE.has((await findRunStatus(id)) ?? "failed"),
        wait: (ms, signal) => notices.wait(ms, signal),
        now: () => Date.now(),
      },
      { cursor: parseCursor(req), signal: ac.signal },
    );
    return new Response(streamOf(closing(gen, notices), ac), { headers: SSE_HEADERS });
  });
}

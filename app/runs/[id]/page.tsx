import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache, Suspense } from "react";
import { RunView } from "@/components/runs/RunView";
import type { RunSeed } from "@/components/runs/use-run";
import { RunIdSchema } from "@/lib/contracts/api";
import { errorLine } from "@/lib/contracts/error-line";
import { markStaleRunsInterrupted } from "@/lib/db/run-recovery";
import { findRun } from "@/lib/db/runs";
import { getRunDetail } from "@/lib/db/run-views";
import { staleAfterMs } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

/** The existence check runs on the server so an unknown or malformed id answers with a real 404. */
const lookupRun = cache(async (id: string) => {
  if (!RunIdSchema.safeParse(id).success) return null;
  const run = await findRun(id);
  return run ? { id: run.id, name: run.name } : null;
});

/**
 * The run detail in the page itself (the same read as GET /api/runs/{id}), so the charts and the step
 * table draw at hydration instead of after a second round trip. It goes as one JSON string, decoded with
 * JSON.parse: as React props, the 1,000 step objects went through the RSC payload's own parser, which took
 * most of the browser's main thread in a profile of the 1,000-step bench run. A failed read renders without
 * it: the client then asks the API and shows its error.
 */
async function readSeed(id: string): Promise<string | undefined> {
  try {
    await markStaleRunsInterrupted(staleAfterMs());
    const seed: RunSeed = { data: await getRunDetail(id), at: Date.now() };
    return JSON.stringify(seed);
  } catch (e) {
    console.warn(`[page /runs/${id}] run detail not rendered on the server: ${errorLine(e)}`);
    return undefined;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const run = await lookupRun((await params).id);
  return { title: run ? run.name || `Run ${run.id.slice(0, 8)}` : "Run not found" };
}

export default async function RunPage({ params }: Props) {
  const run = await lookupRun((await params).id);
  if (!run) notFound();
  const seed = await readSeed(run.id);
  return (
    <Suspense fallback={<p className="text-gray-500">Loading run…</p>}>
      <RunView id={run.id} seedJson={seed} />
    </Suspense>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache, Suspense } from "react";
import { preload } from "react-dom";
import { openingStep } from "@/components/runs/opening-step";
import { RunView } from "@/components/runs/RunView";
import { RunIdSchema } from "@/lib/contracts/api";
import { findRun } from "@/lib/db/runs";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };
type PageProps = Props & { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The existence check runs on the server so an unknown or malformed id answers with a real 404. */
const lookupRun = cache(async (id: string) => {
  if (!RunIdSchema.safeParse(id).success) return null;
  const run = await findRun(id);
  return run ? { id: run.id, name: run.name, stepsDone: run.stepsDone } : null;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const run = await lookupRun((await params).id);
  return { title: run ? run.name || `Run ${run.id.slice(0, 8)}` : "Run not found" };
}

export default async function RunPage({ params, searchParams }: PageProps) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  // The browser starts fetching the run detail and the step the page opens on (the same requests RunView's
  // queries make) as soon as the page's head arrives, while the page's scripts still load: on a 1,000-step
  // run the detail (≈ 450 KB) is then ready when the page has hydrated instead of being asked for after it.
  // The detail is asked for before the run is read: a preload made after an await on the database misses
  // the head when the database is slow to answer (PostgreSQL), and only reaches the page's payload, which
  // the browser reads once the scripts have run.
  if (RunIdSchema.safeParse(id).success)
    preload(`/api/runs/${encodeURIComponent(id)}`, { as: "fetch", crossOrigin: "anonymous" });
  const run = await lookupRun(id);
  if (!run) notFound();
  const latestStep = run.stepsDone > 0 ? run.stepsDone : null;
  const step = openingStep(Array.isArray(query.step) ? query.step[0] : query.step, latestStep);
  if (step !== null)
    preload(`/api/runs/${encodeURIComponent(run.id)}/steps/${step}`, { as: "fetch", crossOrigin: "anonymous" });
  return (
    <Suspense fallback={<p className="text-gray-500">Loading run…</p>}>
      <RunView id={run.id} latestStep={latestStep} />
    </Suspense>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache, Suspense } from "react";
import { RunView } from "@/components/runs/RunView";
import { RunIdSchema } from "@/lib/contracts/api";
import { findRun } from "@/lib/db/runs";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

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

export default async function RunPage({ params }: Props) {
  const run = await lookupRun((await params).id);
  if (!run) notFound();
  return (
    <Suspense fallback={<p className="text-gray-500">Loading run…</p>}>
      <RunView id={run.id} latestStep={run.stepsDone > 0 ? run.stepsDone : null} />
    </Suspense>
  );
}

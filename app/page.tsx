import { RunsPage } from "@/components/runs/RunsPage";
import { parseRunsView, runsQueryString } from "@/components/runs/runs-view";
import type { RunsSeed } from "@/components/runs/use-runs";
import { errorLine } from "@/lib/contracts/error-line";
import { RunsTableQuerySchema } from "@/lib/contracts/run-list";
import { listRunsTable } from "@/lib/db/run-list";
import { markStaleRunsInterrupted } from "@/lib/db/run-recovery";
import { staleAfterMs } from "@/lib/services/run-reads";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The first page of the table in the server's HTML (the same read as GET /api/runs), so rows show before
 * the scripts run. A view the API would refuse, or a failed read, renders without it: the client then asks
 * the API and shows its error.
 */
async function readSeed(searchParams: Props["searchParams"]): Promise<RunsSeed | undefined> {
  const sp = await searchParams;
  const view = parseRunsView({ get: (k) => (typeof sp[k] === "string" ? sp[k] : null) });
  const key = runsQueryString(view, { forApi: true });
  const q = RunsTableQuerySchema.safeParse(Object.fromEntries(new URLSearchParams(key)));
  if (!q.success) return undefined;
  try {
    await markStaleRunsInterrupted(staleAfterMs());
    return { key, data: await listRunsTable(q.data), at: Date.now() };
  } catch (e) {
    console.warn(`[page /] runs table not rendered on the server: ${errorLine(e)}`);
    return undefined;
  }
}

/**
 * No `<Suspense>` around the table: if anything in it waited during the server render, a boundary would
 * send its fallback first and the rows after it, and React reveals streamed rows no sooner than 300 ms
 * after the fallback was painted (its throttle on revealing boundaries) — the rows would show late.
 */
export default async function Home({ searchParams }: Props) {
  const seed = await readSeed(searchParams);
  return <RunsPage seed={seed} />;
}

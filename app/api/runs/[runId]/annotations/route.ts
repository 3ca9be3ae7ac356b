import { RunIdSchema } from "@/lib/contracts/api";
import { RunAnnotationsSchema } from "@/lib/contracts/run-list";
import { setRunAnnotations } from "@/lib/db/run-list";
import { handle, jsonBody } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Replaces the run's tags and note; a bad value is a 422 naming the field (`tags.2`, `note`). */
export function PUT(req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("run annotations", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const body = RunAnnotationsSchema.parse(await jsonBody(req));
    return Response.json(await setRunAnnotations(id, body));
  });
}

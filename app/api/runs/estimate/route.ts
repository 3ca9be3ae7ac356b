import { handle, jsonBody } from "@/lib/http/errors";
import { validateRunRequest } from "@/lib/runs/create";
import { estimateRun } from "@/lib/runs/estimate";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function POST(req: Request) {
  return handle("estimate run", async () => {
    const v = validateRunRequest(await jsonBody(req), process.cwd());
    return Response.json(estimateRun(v.prepared.config, v.prepared.splits, v.prepared.initialSkill));
  });
}

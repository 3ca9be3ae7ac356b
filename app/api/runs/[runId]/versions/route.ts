import { z } from "zod";
import { RunIdSchema } from "@/lib/contracts/api";
import { VersionRefSchema } from "@/lib/contracts/skill-versions";
import { getSkillVersion, listSkillVersions } from "@/lib/db/skill-versions";
import { handle } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const Query = z.object({ ref: VersionRefSchema.optional(), download: z.enum(["1"]).optional() });

/**
 * GET /api/runs/{id}/versions — every skill version with its parent;
 * `?ref=candidate:3` — one version's text (JSON); `&download=1` — the same as a markdown attachment.
 */
export function GET(req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("skill versions", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const q = Query.parse(Object.fromEntries(new URL(req.url).searchParams));
    if (!q.ref) return Response.json(await listSkillVersions(id));
    const v = await getSkillVersion(id, q.ref);
    if (!q.download) return Response.json(v);
    const name = `skill_${id.slice(0, 8)}_${q.ref.replace(":", "_")}.md`;
    return new Response(v.content, {
      headers: {
        "Content-Type": "text/markdown; charset=utf-8",
        "Content-Disposition": `attachment; filename="${name}"`,
      },
    });
  });
}

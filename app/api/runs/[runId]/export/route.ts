import { z } from "zod";
import { RunIdSchema } from "@/lib/contracts/api";
import { buildBundle, getBestSkill } from "@/lib/db/export";
import { handle } from "@/lib/http/errors";
import { runBlameMarkdown } from "@/lib/services/run-reads";
import { ARTIFACT, bundleFileName } from "@/lib/contracts/artifacts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(req: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handle("export", async () => {
    const id = RunIdSchema.parse((await params).runId);
    const what = z.enum(["skill", "bundle"]).parse(new URL(req.url).searchParams.get("what") ?? "skill");
    if (what === "skill") {
      return new Response(await getBestSkill(id), {
        headers: {
          "Content-Type": "text/markdown; charset=utf-8",
          "Content-Disposition": `attachment; filename="${ARTIFACT.bestSkill}"`,
        },
      });
    }
    const extra = { [ARTIFACT.blame]: await runBlameMarkdown(id) };
    return new Response(Buffer.from(await buildBundle(id, { extra })), {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${bundleFileName(id)}"`,
      },
    });
  });
}

import { handle } from "@/lib/http/errors";
import { listPresets } from "@/lib/services/new-run";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET() {
  return handle("list presets", async () => Response.json({ presets: listPresets(process.cwd()) }));
}

import { listBackends } from "@/lib/services/new-run";
import { env } from "@/lib/config/env";
import { handle } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET() {
  return handle("list backends", async () => Response.json({ backends: listBackends(env()) }));
}

import { handle } from "@/lib/http/errors";
import { uploadDataset } from "@/lib/services/new-run";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Stores a .jsonl/.csv data file (multipart field `file`) for the custom benchmark and describes its columns. */
export function POST(req: Request) {
  return handle("upload dataset", async () => Response.json(await uploadDataset(req, process.cwd()), { status: 201 }));
}

/**
 * ALFWorld (spec §A.4, §A.10): the path manifest is itself the runnable split; it is copied as is.
 * The game files are not on Hugging Face: `alfworld-download` fetches them into $ALFWORLD_DATA.
 */
import { requireFields } from "../match";
import { manifestCounts, writeItemSplits, writeSplitManifest } from "./common";
import type { Materializer } from "./types";

export const materializeAlfworld: Materializer = async (ctx) => {
  writeItemSplits(ctx, (split) =>
    ctx.manifest.splits[split].map((m) => {
      requireFields(m.id, m, ["gamefile"], ctx.src.manifestDir);
      return m;
    }),
  );
  writeSplitManifest(ctx, ["id", "gamefile", "task_type"], { upstream: ctx.manifest.meta });
  return {
    counts: manifestCounts(ctx.manifest),
    notes: ["game files are not included: `pip install alfworld && alfworld-download`, then set ALFWORLD_DATA to the folder holding json_2.1.1/ and logic/"],
  };
};

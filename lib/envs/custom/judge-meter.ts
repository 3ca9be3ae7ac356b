/**
 * Counts the grader's calls for one row: the judge uses the optimizer model, which no tracked client of
 * the engine sees here, so the row carries them (`Trajectory.judgeUsage`) and the engine adds them up.
 */
import type { ModelClient } from "../../engine/ports";
import type { Trajectory } from "../../engine/types";

export function meterJudge(client: ModelClient): { client: ModelClient; usage(): Trajectory["judgeUsage"] } {
  const used = { calls: 0, promptTokens: 0, completionTokens: 0 };
  return {
    client: {
      backend: client.backend,
      model: client.model,
      async complete(req) {
        const res = await client.complete(req);
        used.calls += 1;
        used.promptTokens += res.usage.promptTokens;
        used.completionTokens += res.usage.completionTokens;
        return res;
      },
    },
    usage: () => (used.calls > 0 ? { ...used } : undefined),
  };
}

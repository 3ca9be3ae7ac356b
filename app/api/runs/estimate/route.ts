import { RUN_REQUEST_BODY } from "@/lib/http/body";
import { handle, jsonBody } from "@/lib/http/errors";
import {
  datasetFingerprint,
  estimateRun,
  leakageReport,
  preflightSplitWarning,
  simCoverage,
  validateRunRequest,
} from "@/lib/services/new-run";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function POST(req: Request) {
  return handle("estimate run", async () => {
    const v = await validateRunRequest(await jsonBody(req, RUN_REQUEST_BODY), process.cwd());
    const { config, splits, initialSkill, paths } = v.prepared;
    const coverage = simCoverage(v.prepared);
    return Response.json({
      ...estimateRun(config, splits, initialSkill),
      ...(coverage ? { simCoverage: coverage } : {}),
      dataset: datasetFingerprint(config, splits, process.cwd(), paths),
      leakage: leakageReport(splits, { seed: initialSkill }),
      splitWarning: preflightSplitWarning(
        Math.min(config.evaluation.sel_env_num || splits.val.length, splits.val.length),
      ),
    });
  });
}

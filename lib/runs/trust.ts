/**
 * The folders a run from the dashboard may read (DESIGN §7): configs/, data/, the uploads, each
 * benchmark's built-in sample and seed skill, and the data folders the operator configured
 * (SKILLOPT_DATA_ROOTS, plus ALFWORLD_DATA and OFFICEQA_DOCS_DIR, which the benchmarks read anyway).
 * The CLI, run by the machine's own user, reads any path. `Trust` alone decides which applies.
 */
import { delimiter, join } from "node:path";
import type { Trust } from "../contracts/config-trust";
import { DataRootsSchema } from "../config/env";
import { AppError } from "../errors";
import { confinedPathGuard, initialSkillPath, listBenchmarks, localPathGuard, type PathGuard } from "../envs";
import { UPLOADS_DIR } from "./uploads";

export type { Trust } from "../contracts/config-trust";

type Vars = Readonly<Record<string, string | undefined>>;

/** The project folders every dashboard run may read, relative to the project root. */
export const BUILT_IN_READ_ROOTS = ["configs", "data", UPLOADS_DIR] as const;

/** Where dashboard runs write their ratio splits, relative to the project root (inside .skillopt/). */
export const DASHBOARD_SPLITS_DIR = ".skillopt/splits";

const ROOTS_LABEL =
  "configs/, data/, .skillopt/uploads/, the benchmarks' built-in samples and the folders in SKILLOPT_DATA_ROOTS";

function operatorRoots(vars: Vars): string[] {
  const parsed = DataRootsSchema.safeParse(vars.SKILLOPT_DATA_ROOTS);
  if (!parsed.success) {
    throw new AppError(
      "INTERNAL",
      `environment variable SKILLOPT_DATA_ROOTS: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  const list = (v: string | undefined) =>
    (v ?? "")
      .split(new RegExp(`[,${delimiter}]`))
      .map((s) => s.trim())
      .filter((s) => s !== "");
  return [...parsed.data, ...list(vars.ALFWORLD_DATA), ...list(vars.OFFICEQA_DOCS_DIR)];
}

/** Every folder (or file) a dashboard run may read, relative to `rootDir` or absolute. */
export function allowedReadRoots(vars: Vars): string[] {
  const builtIn = listBenchmarks().flatMap((name) => [join("lib/envs", name, "sample"), initialSkillPath(name)]);
  return [...BUILT_IN_READ_ROOTS, ...builtIn, ...operatorRoots(vars)];
}

/** The guard for a run of this trust: any path for the CLI, the allowed roots for the dashboard. */
export function pathGuardFor(trust: Trust, rootDir: string, vars: Vars): PathGuard {
  if (trust === "local") return localPathGuard(rootDir);
  return confinedPathGuard({ rootDir, roots: allowedReadRoots(vars), rootsLabel: ROOTS_LABEL });
}

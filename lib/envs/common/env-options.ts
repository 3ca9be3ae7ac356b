/**
 * Benchmark-specific `env.*` keys. The run-config schema keeps them as unknown catch-all values (the
 * config loader validates them against the catalog), so envs read them defensively with a default.
 */
import type { RunConfig } from "../../contracts/run-config";

/** A boolean env option, or `fallback` when it is absent or not a boolean. */
export function envFlag(config: RunConfig, key: string, fallback: boolean): boolean {
  const value = (config.env as Record<string, unknown>)[key];
  return typeof value === "boolean" ? value : fallback;
}

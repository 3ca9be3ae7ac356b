/**
 * Benchmark-specific `env.*` keys. The run-config schema keeps them as unknown catch-all values (the
 * config loader validates them against the catalog), so envs read them through the catalog schema here:
 * typed, with the catalog's defaults for what is absent.
 */
import type { z } from "zod";
import type { RunConfig } from "../../contracts/run-config";
import { AppError } from "../../errors";
import { BENCHMARKS, type BenchmarkName } from "../catalog";

/** A boolean env option, or `fallback` when it is absent or not a boolean. */
export function envFlag(config: RunConfig, key: string, fallback: boolean): boolean {
  const value = (config.env as Record<string, unknown>)[key];
  return typeof value === "boolean" ? value : fallback;
}

/** The parsed `env.*` options of one benchmark. */
export type BenchmarkOptions<N extends BenchmarkName> = z.output<
  Extract<(typeof BENCHMARKS)[number], { name: N }>["options"]
>;

/**
 * The benchmark's own `env.*` options from `config.env`, parsed by its catalog schema (defaults applied,
 * aliases resolved). A config built in code that skipped the loader gets the same one-line error the
 * loader would give, naming the key.
 */
export function benchmarkOptions<N extends BenchmarkName>(config: RunConfig, name: N): BenchmarkOptions<N> {
  const schema = BENCHMARKS.find((b) => b.name === name)!.options as z.ZodObject;
  const env = config.env as Record<string, unknown>;
  const picked = Object.fromEntries(
    Object.keys(schema.shape)
      .filter((k) => env[k] !== undefined)
      .map((k) => [k, env[k]]),
  );
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = `env.${issue.path.join(".")}`;
    throw new AppError("INVALID_REQUEST", `${field}: ${issue.message}`, { field });
  }
  return parsed.data as BenchmarkOptions<N>;
}

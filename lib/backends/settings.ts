/**
 * How a backend's settings are found for one role. Config keys under `model` win (`<role>_<key>` over
 * `<key>`), then environment variables (the role's variant over the shared one), then the default.
 * Secrets never come from config — only from the environment passed in (callers pass `process.env`).
 * Also the run-wide transport options (`max_concurrency`, `timeout_seconds`, `max_retries`, `cache`,
 * `cache_dir`, `price_table`), validated here because the loader lets `model.*` transport keys through.
 */
import { z } from "zod";
import type { RunConfig } from "../contracts/run-config";
import type { Role } from "../engine/ports";
import { AppError } from "../errors";
import { withUserPrices, type PriceTable } from "./pricing";

export type EnvVars = Readonly<Record<string, string | undefined>>;
export type ModelSection = RunConfig["model"];

export interface Found {
  value: string;
  /** Where it came from: `model.optimizer_openai_base_url` or `OPENAI_BASE_URL`. */
  source: string;
}

/** `OPTIMIZER_<BASE>` / `TARGET_<BASE>`, plus any other role spellings, then the shared `<BASE>`. */
export function roleEnvNames(role: Role, base: string, otherRoleForms: string[] = []): string[] {
  return [`${role.toUpperCase()}_${base}`, ...otherRoleForms, base];
}

/** The first non-empty variable among `names`. */
export function fromEnv(env: EnvVars, names: readonly string[]): Found | null {
  for (const name of names) {
    const v = env[name]?.trim();
    if (v) return { value: v, source: name };
  }
  return null;
}

/** A role's config value for `key`: `model.<role>_<key>`, then `model.<key>`. */
export function fromConfig(model: ModelSection, role: Role, key: string): { value: unknown; field: string } | null {
  for (const k of [`${role}_${key}`, key]) {
    const v = (model as Record<string, unknown>)[k];
    if (v !== undefined && v !== null && v !== "") return { value: v, field: `model.${k}` };
  }
  return null;
}

/** A string setting: config (role, shared), then the environment variables in order. */
export function stringSetting(
  model: ModelSection,
  role: Role,
  key: string,
  envNames: readonly string[],
  env: EnvVars,
): Found | null {
  const c = fromConfig(model, role, key);
  if (c) {
    if (typeof c.value !== "string" && typeof c.value !== "number") {
      throw new AppError("INVALID_REQUEST", `${c.field}: expected a string`, { field: c.field });
    }
    return { value: String(c.value).trim(), source: c.field };
  }
  return fromEnv(env, envNames);
}

/** A required secret from the environment; missing → a refusal naming the variable(s) to set. */
export function requireSecret(
  env: EnvVars,
  names: readonly string[],
  o: { role: Role; backend: string; what?: string },
): Found {
  const hit = fromEnv(env, names);
  if (hit) return hit;
  const shared = names[names.length - 1]!;
  const perRole = names.slice(0, -1);
  const alt = perRole.length ? ` (or ${perRole.join(" / ")} for the ${o.role} only)` : "";
  throw new AppError(
    "INVALID_REQUEST",
    `model.${o.role}_backend: the ${o.role} uses backend '${o.backend}', which needs ${o.what ?? "an API key"}: set ${shared}${alt}`,
    { field: `model.${o.role}_backend` },
  );
}

/** A base URL or endpoint: must be an absolute http(s) URL. Returned without trailing slashes. */
export function checkHttpUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError("INVALID_REQUEST", `${source}: '${value}' is not a URL (expected http:// or https://)`, {
      field: source,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError("INVALID_REQUEST", `${source}: '${value}' must be an http:// or https:// URL`, {
      field: source,
    });
  }
  return value.replace(/\/+$/, "");
}

const bool = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());
const PriceSchema = z.strictObject({ inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) });

const HEDGE_TIER = /^\s*(\d+)\s*@\s*(0(?:\.\d+)?|1(?:\.0*)?)\s*$/;

/** `model.hedge_tiers`: `CALLS@PERCENTILE` entries, e.g. `["4@0.9", "2@0.5"]` or `"4@0.9,2@0.5"`. */
const HedgeTiersSchema = z
  .preprocess(
    (v) => (typeof v === "string" ? v.split(",").filter((s) => s.trim() !== "") : v),
    z.array(z.string()).max(16),
  )
  .transform((entries, ctx) =>
    entries.flatMap((entry, i) => {
      const m = HEDGE_TIER.exec(entry);
      const calls = Number(m?.[1]);
      const percentile = Number(m?.[2]);
      if (!m || calls < 1 || calls > 1024 || percentile < 0.5 || percentile > 0.999) {
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `expected CALLS@PERCENTILE with CALLS 1–1024 and PERCENTILE 0.5–0.999, e.g. 4@0.9 (got '${entry}')`,
        });
        return [];
      }
      return [{ calls, percentile }];
    }),
  );

export const TransportOptionsSchema = z.object({
  /** Requests in flight per backend endpoint in this process. */
  max_concurrency: z.coerce.number().int().min(1).max(1024).default(16),
  /** Per-attempt timeout; 0 disables it. */
  timeout_seconds: z.coerce.number().min(0).max(86_400, "at most 86400 (one day)").default(300),
  /** Extra attempts after a rate-limited or transient failure. */
  max_retries: z.coerce.number().int().min(0).max(20).default(5),
  cache: bool.default(false),
  /** Cache directory; default `<rootDir>/.skillopt/llm-cache`. */
  cache_dir: z.string().default(""),
  /**
   * Tail-tolerant calls: a second identical request once an attempt has run longer than the stage's
   * `hedge_percentile` latency (learned per endpoint and stage after `hedge_min_samples` answers), in a
   * concurrency slot no queued call wants: at once when one is free, else as soon as one frees up with
   * nobody waiting (a hedge never delays a queued call, nor is it dropped for want of a slot). First
   * answer wins; both are billed (the extra one under `<stage>_hedge`).
   */
  hedge: bool.default(false),
  hedge_percentile: z.coerce.number().min(0.5).max(0.999).default(0.99),
  hedge_min_samples: z.coerce.number().int().min(1).max(10_000).default(20),
  /**
   * One more tier (see `hedge_tiers`), kept for configs that set it: while nothing is queued for the endpoint
   * and at most `hedge_tail_calls` first requests are in flight on it, a call is hedged past the stage's
   * `hedge_tail_percentile` latency (a stage with too few answers of its own uses the endpoint's over all
   * stages). 0 calls = off (the default).
   */
  hedge_tail_percentile: z.coerce.number().min(0.5).max(0.999).default(0.75),
  hedge_tail_calls: z.coerce.number().int().min(0).max(1024).default(0),
  /**
   * More such tiers, as `CALLS@PERCENTILE` (a list, or one comma-separated string): while nothing is queued
   * and at most CALLS first requests are in flight on the endpoint, a call is hedged past the stage's
   * PERCENTILE latency. The default hedges the straggler everything waits for early (p50 with ≤ 2 in
   * flight), the last few at p95 (≤ 4), and the bulk only at `hedge_percentile`. `""` or `[]`: none.
   */
  hedge_tiers: HedgeTiersSchema.default([
    { calls: 4, percentile: 0.95 },
    { calls: 2, percentile: 0.5 },
  ]),
  /**
   * Requests and tokens per minute per endpoint and API key, shared by every worker through Redis
   * (lib/backends/policy/rate-limit.ts); 0 = no limit.
   */
  rate_limit_rpm: z.coerce.number().int().min(0).max(10_000_000).default(0),
  rate_limit_tpm: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  /** "backend:model" → price per million tokens; either side may be `*`. */
  price_table: z.record(z.string(), PriceSchema).default({}),
});
export type TransportOptions = z.output<typeof TransportOptionsSchema> & { price_table: PriceTable };

const TRANSPORT_KEYS = Object.keys(TransportOptionsSchema.shape);

/** The run-wide transport options from `model.*`; a bad value is refused naming its key. */
export function transportOptionsOf(model: ModelSection): TransportOptions {
  const picked = Object.fromEntries(
    TRANSPORT_KEYS.map((k) => [k, (model as Record<string, unknown>)[k]]).filter(
      ([, v]) => v !== undefined && v !== null,
    ),
  );
  const parsed = TransportOptionsSchema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = `model.${issue.path.join(".")}`;
    throw new AppError("INVALID_REQUEST", `${field}: ${issue.message}`, { field });
  }
  for (const key of Object.keys(parsed.data.price_table)) {
    if (!/^[^:\s]+:\S+$/.test(key)) {
      throw new AppError("INVALID_REQUEST", `model.price_table.${key}: keys are backend:model (either side may be *)`, {
        field: "model.price_table",
      });
    }
  }
  return parsed.data;
}

/** The run's price table: the built-in entries with its `model.price_table` layered on top. */
export function priceTableOf(model: ModelSection): PriceTable {
  return withUserPrices(transportOptionsOf(model).price_table);
}

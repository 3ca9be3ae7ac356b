/**
 * The policy state one run shares between its two clients: one budget (both roles spend from it), one
 * usage ledger, the response cache (when `model.cache` is on), the price table (built-in + the run's
 * `model.price_table`), the transport options, and the sleep/random used by retries (injectable).
 */
import { isAbsolute, join, resolve } from "node:path";
import type { RunConfig } from "../../contracts/run-config";
import type { BackendStats, Role } from "../../engine/ports";
import { withUserPrices, type PriceTable } from "../pricing";
import { transportOptionsOf, type TransportOptions } from "../settings";
import { Budget, type RunBudget, type Spent } from "./budget";
import { ResponseCache } from "./cache";
import type { HedgeTimer } from "./hedge";
import { DEFAULT_RETRY, type RetryOptions } from "./retry";
import { UsageLedger } from "./stats";

export interface RunPolicyOptions {
  /** The project root: the default cache lives in `<rootDir>/.skillopt/llm-cache`. */
  rootDir?: string;
  /** What earlier sessions of this run already spent (a resumed run keeps counting from there). */
  spent?: Spent;
  /** Retry timing overrides (tests pass a fake sleep and a fixed random). */
  retry?: Partial<Omit<RetryOptions, "maxRetries">>;
  /** Timer of the hedge delay (tests pass a manual one); default setTimeout. */
  hedgeTimer?: HedgeTimer;
  /** The budget to spend from instead of one of this process (a fanned-out run's `SharedBudget`). */
  budget?: RunBudget;
}

export class RunPolicy {
  readonly budget: RunBudget;
  readonly ledger = new UsageLedger();
  readonly cache: ResponseCache | null;
  readonly prices: PriceTable;
  readonly transport: TransportOptions;
  readonly retry: Omit<RetryOptions, "maxRetries">;
  readonly hedgeTimer: HedgeTimer | undefined;

  constructor(config: RunConfig, opts: RunPolicyOptions = {}) {
    this.transport = transportOptionsOf(config.model);
    this.prices = withUserPrices(this.transport.price_table);
    this.budget =
      opts.budget ?? new Budget({ max_usd: config.budget.max_usd, max_calls: config.budget.max_calls }, opts.spent);
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.hedgeTimer = opts.hedgeTimer;
    const root = resolve(opts.rootDir ?? ".");
    const dir = this.transport.cache_dir
      ? isAbsolute(this.transport.cache_dir)
        ? this.transport.cache_dir
        : resolve(root, this.transport.cache_dir)
      : join(root, ".skillopt", "llm-cache");
    this.cache = this.transport.cache ? new ResponseCache(dir) : null;
  }

  /** Each role's usage so far. */
  stats(): Partial<Record<Role, BackendStats>> {
    return this.ledger.snapshot();
  }
}

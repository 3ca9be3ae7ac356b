/**
 * The night's evidentiary chain (`evidence.jsonl`, spec D.12): one JSON line per event — harvested
 * sessions, miner exchanges, tasks and their splits, every model call, every scored replay (tagged with
 * its phase), reflect exchanges, gate trials and the decision with its arithmetic, staging. Append-only,
 * so a night that crashes still leaves its partial chain. Every string is redacted *before* it is
 * truncated: cutting first could remove the end marker of a structured secret (a PEM block) and leave
 * its body unrecognised in the kept prefix.
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { redactText } from "../contracts/redact";
import { snakeKeys } from "./keys";
import { localIso } from "./state";

export interface Evidence {
  /** The consolidation phase later replay events belong to (baseline_val, train, gate_trial:skill …). */
  phase: string;
  log(stage: string, event: string, data?: Record<string, unknown>): void;
}

/** Evidence switched off: nothing is written and nothing is computed for it. */
export class NoEvidence implements Evidence {
  phase = "";
  log(): void {}
}

export interface EvidenceOptions {
  maxChars: number;
  redact: boolean;
  now: () => number;
}

export class EvidenceLog implements Evidence {
  phase = "";
  private seq = 0;
  private readonly maxChars: number;

  constructor(
    readonly path: string,
    private readonly opts: EvidenceOptions,
  ) {
    this.maxChars = Math.max(200, Math.floor(opts.maxChars));
    mkdirSync(dirname(path), { recursive: true });
  }

  private clean(value: unknown): unknown {
    if (typeof value === "string") {
      const text = this.opts.redact ? redactText(value) : value;
      if (text.length <= this.maxChars) return text;
      return `${text.slice(0, this.maxChars)}…[truncated ${text.length - this.maxChars} chars]`;
    }
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (Array.isArray(value)) return value.map((v) => this.clean(v));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.clean(v)]));
    }
    return value;
  }

  log(stage: string, event: string, data: Record<string, unknown> = {}): void {
    this.seq += 1;
    const record = {
      ts: localIso(this.opts.now()),
      seq: this.seq,
      stage,
      event,
      ...(this.clean(snakeKeys(data)) as object),
    };
    appendFileSync(this.path, `${JSON.stringify(record)}\n`);
  }
}

/** The events of an evidence file in order; lines that do not parse are skipped. */
export function readEvidence(path: string): Array<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return []; // no evidence yet
  }
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      continue; // a torn last line of a crashed night
    }
  }
  return out;
}

/**
 * Run events as they are stored and streamed (RunEvent rows): the engine's events made lean — per-item
 * results and edit lists replaced by their counts, skill texts left out (they live in their own rows) —
 * and the lifecycle events. Every reader parses a stored event with the schema of its type; one that does
 * not parse is an error naming the event and the field, never a silent zero.
 */
import { z } from "zod";
import { EngineEventSchema, type EngineEvent } from "./events";
import { LifecycleEventSchema, type LifecycleEvent } from "./run-events";

/** Lists stored as their length, under these names. */
const COUNTED = { results: "nResults", edits: "nEdits" } as const;
/** Skill texts stored in SkillVersion / RunArtifact rows instead. */
const LEFT_OUT = ["candidate", "currentSkill", "bestSkill"] as const;
type Bulky = keyof typeof COUNTED | (typeof LEFT_OUT)[number] | "gateScored";
/** The slow-update gate's per-item results (stored as EvalResult rows): kept as their count. */
const GateScoredLeanSchema = z.object({ candidateHash: z.string(), nResults: z.number().int().nonnegative() });

type Lean<E> = E extends unknown
  ? Omit<E, Bulky> &
      (E extends { results: unknown[] } ? { nResults: number } : unknown) &
      (E extends { edits: unknown[] } ? { nEdits: number } : unknown) &
      (E extends { type: "slowUpdateApplied" } ? { gateScored?: z.infer<typeof GateScoredLeanSchema> } : unknown)
  : never;
type StoredEngineEvent = Lean<EngineEvent>;
/** Every event a run stores and streams: the engine's (lean) and the lifecycle ones. */
export type StoredRunEvent = StoredEngineEvent | LifecycleEvent;
export type StoredRunEventOf<T extends StoredRunEvent["type"]> = Extract<StoredRunEvent, { type: T }>;

/** The event as stored and streamed: bulky parts (skills, per-item results, edit lists) live in their own rows. */
export function leanPayload(e: EngineEvent): StoredEngineEvent {
  const out: Record<string, unknown> = { ...e };
  for (const [list, counter] of Object.entries(COUNTED)) {
    if (Array.isArray(out[list])) out[counter] = (out[list] as unknown[]).length;
    delete out[list];
  }
  for (const k of LEFT_OUT) delete out[k];
  if (e.type === "slowUpdateApplied" && e.gateScored)
    out.gateScored = { candidateHash: e.gateScored.candidateHash, nResults: e.gateScored.results.length };
  return out as StoredEngineEvent;
}

const nonNegative = z.number().int().nonnegative();

function leanSchema(option: (typeof EngineEventSchema.options)[number]): z.ZodType {
  const shape: Record<string, z.ZodType> = { ...option.shape };
  for (const [list, counter] of Object.entries(COUNTED)) {
    if (list in shape) {
      delete shape[list];
      shape[counter] = nonNegative;
    }
  }
  for (const k of LEFT_OUT) delete shape[k];
  if ("gateScored" in shape) shape.gateScored = GateScoredLeanSchema.optional();
  return z.object(shape);
}

const SCHEMAS = new Map<string, z.ZodType>([
  ...EngineEventSchema.options.map((o) => [o.shape.type.value, leanSchema(o)] as const),
  ...LifecycleEventSchema.options.map((o) => [o.shape.type.value, o] as const),
]);

/** A stored event that does not parse with its type's schema. */
export class StoredEventError extends Error {
  constructor(
    readonly seq: number,
    readonly type: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`stored run event #${seq} (${type})${field ? `: field ${field}` : ""}: ${problem}`);
    this.name = "StoredEventError";
  }
}

/**
 * The JSON payload to store for an event, checked with the schema every reader will parse it with: an event
 * that would not read back is refused when written (naming its type and field), not found later.
 */
export function storedPayloadJson(seq: number, event: StoredRunEvent): string {
  const text = JSON.stringify(event);
  parseStoredEvent({ seq, type: event.type, payload: text });
  return text;
}

/** Parses one stored event (a RunEvent row's type and JSON payload) with the schema of its type. */
export function parseStoredEvent(row: { seq: number; type: string; payload: string }): StoredRunEvent {
  const schema = SCHEMAS.get(row.type);
  if (!schema) throw new StoredEventError(row.seq, row.type, "type", "not a known event type");
  let raw: unknown;
  try {
    raw = JSON.parse(row.payload);
  } catch (e) {
    throw new StoredEventError(row.seq, row.type, "", `payload is not JSON (${(e as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new StoredEventError(row.seq, row.type, first?.path.map(String).join(".") ?? "", first?.message ?? "invalid");
  }
  // The schema was chosen by the row's type, and the payload carries the same `type`.
  return parsed.data as StoredRunEvent;
}

/** Parses stored events of one type (rows selected by that type). */
export function parseStoredEventsOf<T extends StoredRunEvent["type"]>(
  type: T,
  rows: readonly { seq: number; type: string; payload: string }[],
): StoredRunEventOf<T>[] {
  return rows.map((r) => {
    if (r.type !== type) throw new StoredEventError(r.seq, r.type, "type", `expected ${type}`);
    return parseStoredEvent(r) as StoredRunEventOf<T>;
  });
}

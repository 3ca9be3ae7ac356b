/**
 * Stored run events on the SSE stream. Each frame carries a RunEvent row as stored: its seq, type, JSON
 * payload text and time. The browser parses the payload with the same stored schema every server reader
 * uses (`parseStoredEvent`); a frame whose payload does not parse is kept as one readable problem line
 * naming the type and the field, never dropped in silence and never read as zeros.
 */
import { z } from "zod";
import { parseStoredEvent, StoredEventError, type StoredRunEvent } from "./stored-events";

/** The frame's envelope on the wire: the payload is the row's stored JSON text, parsed by its type's schema. */
const StreamFrameSchema = z.object({
  seq: z.number().int().min(1),
  type: z.string().min(1),
  payload: z.string(),
  createdAt: z.string(),
});

/** A frame as the browser keeps it: the event parsed with its stored schema, or what kept it from parsing. */
export type EventFrame = { seq: number; type: string; createdAt: string } & (
  { event: StoredRunEvent; problem: null } | { event: null; problem: string }
);

/** The SSE `data:` text of one stored row. */
export function streamFrameData(row: { seq: number; type: string; payload: string; createdAt: Date }): string {
  return JSON.stringify({ seq: row.seq, type: row.type, payload: row.payload, createdAt: row.createdAt.toISOString() });
}

/** "unreadable gateDecided event: field step: Invalid input: expected number, received undefined". */
export function unreadableLine(err: StoredEventError): string {
  return `unreadable ${err.type} event: ${err.field ? `field ${err.field}: ` : ""}${err.problem}`;
}

/**
 * One SSE frame's data: null when it is not a frame at all (not JSON, or no seq/type), else the frame with
 * its event parsed, or with the problem line when the payload does not parse with its type's schema.
 */
export function parseStreamFrame(data: string): EventFrame | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  const envelope = StreamFrameSchema.safeParse(raw);
  if (!envelope.success) return null;
  const { seq, type, payload, createdAt } = envelope.data;
  try {
    return { seq, type, createdAt, event: parseStoredEvent({ seq, type, payload }), problem: null };
  } catch (e) {
    if (e instanceof StoredEventError) return { seq, type, createdAt, event: null, problem: unreadableLine(e) };
    throw e;
  }
}

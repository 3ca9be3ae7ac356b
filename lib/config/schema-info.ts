/**
 * Reading zod schemas back for messages: "expected integer >= 2" is clearer than zod's generic text,
 * and override casting needs to know which keys hold strings.
 */
import { z } from "zod";

/** The schema without its default/prefault/optional/nullable wrappers. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  for (;;) {
    if (
      s instanceof z.ZodDefault ||
      s instanceof z.ZodPrefault ||
      s instanceof z.ZodOptional ||
      s instanceof z.ZodNullable
    ) {
      s = s.unwrap() as z.ZodType;
    } else {
      return s;
    }
  }
}

function describeNumber(s: z.ZodNumber): string {
  const kind = s.isInt ? "integer" : "number";
  const min = s.minValue !== null && s.minValue > Number.MIN_SAFE_INTEGER ? s.minValue : null;
  const max = s.maxValue !== null && s.maxValue < Number.MAX_SAFE_INTEGER ? s.maxValue : null;
  if (min !== null && max !== null) return `${kind} in [${min}, ${max}]`;
  if (min !== null) return `${kind} >= ${min}`;
  if (max !== null) return `${kind} <= ${max}`;
  return kind;
}

/** A short human description of what a schema accepts ("integer >= 1", "one of a | b", "boolean or null"). */
export function describeSchema(schema: z.ZodType): string {
  if (schema instanceof z.ZodNullable) return `${describeSchema(schema.unwrap() as z.ZodType)} or null`;
  const s = unwrapSchema(schema);
  if (s instanceof z.ZodNullable) return describeSchema(s);
  if (s instanceof z.ZodNumber) return describeNumber(s);
  if (s instanceof z.ZodBoolean) return "boolean";
  if (s instanceof z.ZodString) return "string";
  if (s instanceof z.ZodEnum) return `one of ${s.options.join(" | ")}`;
  if (s instanceof z.ZodArray) return `list of ${describeSchema(s.element as z.ZodType)}`;
  if (s instanceof z.ZodUnion) return s.options.map((o) => describeSchema(o as z.ZodType)).join(" or ");
  // Alias enums and similar are string → transform pipes: describe what the user writes.
  if (s instanceof z.ZodPipe) return describeSchema(s.in as z.ZodType);
  if (s instanceof z.ZodObject) return "mapping";
  return "value";
}

/** True when the schema takes a string (plain, enum, or an alias enum), so override values stay raw. */
export function expectsString(schema: z.ZodType): boolean {
  const s = unwrapSchema(schema);
  if (s instanceof z.ZodPipe) return expectsString(s.in as z.ZodType);
  return s instanceof z.ZodString || s instanceof z.ZodEnum;
}

/** The schema of `key` inside an object schema, or undefined when the object does not declare it. */
export function fieldSchema(object: z.ZodObject, key: string): z.ZodType | undefined {
  return Object.hasOwn(object.shape, key) ? (object.shape[key] as z.ZodType) : undefined;
}

/**
 * Form state ↔ config values. Inputs hold text (numbers as typed) or booleans; only fields that differ
 * from the preset become overrides, so a run's stored config shows exactly what the user changed.
 */
import { MAX_SKILL_CHARS } from "@/lib/contracts/api";
import type { ConfigField } from "./config-fields";

export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;
export type OverrideValue = string | number | boolean;

/** The value at a dotted key ("train.batch_size") of a config object. */
export function readKey(config: unknown, key: string): unknown {
  let cur: unknown = config;
  for (const part of key.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function toFormValue(field: ConfigField, v: unknown): FormValue {
  if (field.kind.type === "bool") return v === true;
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.join(", ");
  return String(v);
}

export function initialValues(fields: readonly ConfigField[], config: unknown): FormValues {
  return Object.fromEntries(fields.map((f) => [f.key, toFormValue(f, readKey(config, f.key))]));
}

/** A client-side check with the schema's rules; null when valid. The server checks again. */
export function validateValue(field: ConfigField, value: FormValue): string | null {
  const k = field.kind;
  if (k.type === "bool") return null;
  const text = String(value).trim();
  if (text === "") return field.nullable || k.type === "text" ? null : "required";
  if (k.type === "int" || k.type === "number") {
    const n = Number(text);
    if (!Number.isFinite(n)) return "not a number";
    if (k.type === "int" && !Number.isInteger(n)) return "expected a whole number";
    if (k.min !== undefined && n < k.min) return `must be at least ${k.min}`;
    if (k.max !== undefined && n > k.max) return `must be at most ${k.max}`;
  }
  if (k.type === "enum" && !k.options.includes(text)) return `expected one of ${k.options.join(", ")}`;
  if (k.type === "text" && k.pattern && !k.pattern.test(text))
    return `expected ${k.patternHint ?? "a different format"}`;
  return null;
}

function parseValue(field: ConfigField, value: FormValue): OverrideValue | undefined {
  if (field.kind.type === "bool") return value === true;
  const text = String(value).trim();
  if (text === "") return undefined; // "no value": the server ignores empty overrides, so the preset's stays
  if (field.kind.type === "int" || field.kind.type === "number") {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

/** Overrides for the fields whose value differs from the preset's. */
export function buildOverrides(
  fields: readonly ConfigField[],
  values: FormValues,
  baseline: FormValues,
): Record<string, OverrideValue> {
  const out: Record<string, OverrideValue> = {};
  for (const f of fields) {
    const v = values[f.key];
    if (v === undefined || v === baseline[f.key]) continue;
    const parsed = parseValue(f, v);
    if (parsed !== undefined) out[f.key] = parsed;
  }
  return out;
}

/** Errors of every field, keyed by dotted key. */
export function validateAll(fields: readonly ConfigField[], values: FormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const err = validateValue(f, values[f.key] ?? "");
    if (err) out[f.key] = err;
  }
  return out;
}

/**
 * The seed skill's size check, as the server counts it (UTF-8 bytes; 200 KB). Caught here, an oversized
 * skill is one message under the editor and is never sent.
 */
export function skillError(text: string): string | null {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes <= MAX_SKILL_CHARS) return null;
  const kb = bytes / 1024;
  return `the skill is ${kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${Math.ceil(kb)} KB`}; the limit is 200 KB`;
}

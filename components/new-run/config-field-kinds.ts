/** Field kinds and the shape of the New run form's config sections (the field lists live beside this file). */

export type FieldKind =
  | { type: "int"; min?: number; max?: number }
  | { type: "number"; min?: number; max?: number; step?: number }
  | { type: "bool" }
  | { type: "enum"; options: readonly string[] }
  | { type: "text"; pattern?: RegExp; patternHint?: string };

export interface ConfigField {
  key: string;
  label: string;
  help: string;
  kind: FieldKind;
  /** Empty input means null (no value); only keys whose schema is nullable. */
  nullable?: boolean;
}

export interface ConfigSectionSpec {
  id: string;
  title: string;
  blurb: string;
  fields: ConfigField[];
}

export const int = (min?: number, max?: number): FieldKind => ({ type: "int", min, max });
export const num = (min?: number, max?: number, step = 0.01): FieldKind => ({ type: "number", min, max, step });
export const bool: FieldKind = { type: "bool" };
export const oneOf = (options: readonly string[]): FieldKind => ({ type: "enum", options });

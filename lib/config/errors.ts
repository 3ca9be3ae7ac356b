/**
 * The config loader's error type and how it names files. Every config problem is an INVALID_REQUEST
 * with a one-line message (the CLI prints it as is, the dashboard shows it under the form) and a
 * `field` pointing at the dotted key or the file at fault.
 */
import { isAbsolute, relative, sep } from "node:path";
import { AppError } from "../errors";

/** A config that cannot be loaded: bad YAML, bad `_base_`, unknown key, wrong type, secret, bad override. */
export class ConfigError extends AppError {
  constructor(message: string, field?: string) {
    // Multi-line text (YAML excerpts, nested zod messages) is folded so callers can rely on one line.
    const line = message.replace(/\s*\n\s*/g, " ").trim();
    super("INVALID_REQUEST", line, { userMessage: line, field });
    this.name = "ConfigError";
  }
}

/** The source name used for `key=value` overrides in messages and provenance. */
export const OVERRIDES_SOURCE = "--cfg-options";

/**
 * How a config file is named in messages: relative to the current directory when it lies inside it
 * (the CLI runs from the project root, so `configs/searchqa/default.yaml` reads naturally), else absolute.
 */
export function displayPath(absPath: string): string {
  const rel = relative(process.cwd(), absPath);
  const outside = rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return rel !== "" && !outside ? rel : absPath;
}

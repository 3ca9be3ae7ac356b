/**
 * Model backends registered at run time (`registerBackend` in the registry), kept apart from the
 * registry so the dashboard's catalog can list them without loading any SDK. Empty unless a deployment
 * registers one: the built-in backends are the registry's own table.
 */
import type { Role } from "../engine/ports";
import type { ProviderFactory } from "./provider";

/** Everything one registered backend brings: its names, the roles it may play and its transport factory. */
export interface BackendExtension {
  /** Canonical name (lower-case letters, digits and dashes), as written in `model.backend`. */
  name: string;
  /** Other spellings accepted in configs (matched trimmed and case-insensitively). */
  aliases?: readonly string[];
  /** The roles it can play (default both); a target-only backend leaves the optimizer on OpenAI. */
  roles?: readonly Role[];
  /** Builds one role's transport; the registry wraps it in the policy layer (retries, limits, budget, usage). */
  provider: ProviderFactory;
  /** What the environment still lacks before it can be used (shown in the form), or null when ready. */
  missing?: (env: Readonly<Record<string, unknown>>) => string | null;
  /** The form's note when it is ready (default "registered backend"). */
  note?: string;
}

/**
 * One store per process (globalThis): the dashboard's server bundles each carry a copy of this module, and
 * every copy must see the backends instrumentation.ts registered from SKILLOPT_EXTENSIONS.
 */
const g = globalThis as unknown as {
  __skilloptBackendExtensions?: { byName: Map<string, BackendExtension>; bySpelling: Map<string, BackendExtension> };
};
const { byName: BY_NAME, bySpelling: BY_SPELLING } = (g.__skilloptBackendExtensions ??= {
  byName: new Map(),
  bySpelling: new Map(),
});

/** Stores an extension under its name and aliases; the registry has checked them against the built-ins. */
export function storeBackendExtension(ext: BackendExtension): () => void {
  BY_NAME.set(ext.name, ext);
  const spellings = [ext.name, ...(ext.aliases ?? []).map((a) => a.trim().toLowerCase())];
  for (const s of spellings) BY_SPELLING.set(s, ext);
  return () => {
    BY_NAME.delete(ext.name);
    for (const s of spellings) if (BY_SPELLING.get(s) === ext) BY_SPELLING.delete(s);
  };
}

/** The registered backend a name or alias means, or null. */
export function findBackendExtension(spelling: string): BackendExtension | null {
  return BY_SPELLING.get(spelling.trim().toLowerCase()) ?? null;
}

/** Registered backends, in registration order. */
export function listBackendExtensions(): BackendExtension[] {
  return [...BY_NAME.values()];
}

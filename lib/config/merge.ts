/**
 * Deep merge of structured layers with per-leaf provenance: mappings merge key by key, everything
 * else (lists included) is replaced wholesale, and every leaf remembers which layer last set it so a
 * type error can say "set in configs/x.yaml" rather than leaving the user to search the chain.
 */
import { isMapping, type Layer, type Mapping } from "./normalise";

/** Which layer last set a value, and how the user spelled the key when it was a mapped flat key. */
export interface Provenance {
  source: string;
  written?: string;
}

/** Dotted path → provenance of the value at that path. */
export type ProvenanceMap = Map<string, Provenance>;

function forgetBelow(prov: ProvenanceMap, dotted: string): void {
  for (const key of prov.keys()) if (key === dotted || key.startsWith(`${dotted}.`)) prov.delete(key);
}

function recordAll(prov: ProvenanceMap, dotted: string, value: unknown, layer: Layer): void {
  prov.set(dotted, { source: layer.source, written: layer.written.get(dotted) });
  if (isMapping(value)) for (const [k, v] of Object.entries(value)) recordAll(prov, `${dotted}.${k}`, v, layer);
}

function mergeInto(target: Mapping, incoming: Mapping, prefix: string, layer: Layer, prov: ProvenanceMap): void {
  for (const [key, value] of Object.entries(incoming)) {
    const dotted = prefix === "" ? key : `${prefix}.${key}`;
    const current = target[key];
    if (isMapping(value) && isMapping(current)) {
      mergeInto(current, value, dotted, layer, prov);
      continue;
    }
    // Copies keep later layers (and callers) from aliasing each other's lists and mappings.
    target[key] = structuredClone(value);
    forgetBelow(prov, dotted);
    recordAll(prov, dotted, value, layer);
  }
}

/** Merges `layer` on top of `target` (mutated), updating provenance for every value it sets. */
export function mergeLayer(target: Mapping, layer: Layer, prov: ProvenanceMap): void {
  mergeInto(target, layer.data, "", layer, prov);
}

/** Provenance of `path`, or of its nearest ancestor that has one (an item inside a replaced list). */
export function findProvenance(prov: ProvenanceMap, path: readonly (string | number)[]): Provenance | undefined {
  for (let n = path.length; n > 0; n--) {
    const hit = prov.get(path.slice(0, n).join("."));
    if (hit) return hit;
  }
  return undefined;
}

/** "configs/x.yaml" or "configs/x.yaml (as edit_budget)", for messages. */
export function describeProvenance(p: Provenance | undefined): string {
  if (!p) return "the schema defaults";
  return p.written ? `${p.source} (as ${p.written})` : p.source;
}

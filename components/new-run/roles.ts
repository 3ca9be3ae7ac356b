/**
 * Backend choice per role in the form. The server resolves aliases and `model.backend` (PresetInfo.roles);
 * the browser preselects that and checks whether it is usable here.
 */
import type { BackendInfo, PresetInfo } from "@/lib/contracts/api";

export const ROLES = ["optimizer", "target"] as const;
export type Role = (typeof ROLES)[number];

export interface RoleChoice {
  backend: string;
  model: string;
}

/** The preset's backend and model for a role, as the server resolved them. */
export function presetRole(preset: PresetInfo, role: Role): RoleChoice {
  return { ...preset.roles[role] };
}

/**
 * The initial choice: the preset's when its backend is available here, otherwise the simulated model
 * (with a note saying why), so a fresh install with no API key can always start a run.
 */
export function initialRole(
  preset: RoleChoice,
  backends: BackendInfo[],
  role: Role,
): { choice: RoleChoice; note: string | null } {
  const info = backends.find((b) => b.name === preset.backend);
  if (info?.available) return { choice: preset, note: null };
  const why = info
    ? `${preset.backend} is unavailable (${info.note})`
    : `the preset's backend '${preset.backend}' is not offered here`;
  return {
    choice: { backend: "sim", model: `sim-${role}` },
    note: `${why}; using the simulated model for the ${role}.`,
  };
}

/** True when some backend other than the simulated one has credentials. */
export function hasRealBackend(backends: BackendInfo[]): boolean {
  return backends.some((b) => b.name !== "sim" && b.available);
}

/** `model.*` overrides for the roles whose backend or model differs from the preset's. */
export function roleOverrides(
  chosen: Record<Role, RoleChoice>,
  preset: Record<Role, RoleChoice>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const role of ROLES) {
    if (chosen[role].backend !== preset[role].backend) out[`model.${role}_backend`] = chosen[role].backend;
    if (chosen[role].model !== preset[role].model) out[`model.${role}`] = chosen[role].model;
  }
  return out;
}

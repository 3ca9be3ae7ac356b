/**
 * Which backends this installation can use, for the dashboard's pickers (client-safe data, no SDKs).
 * Availability depends on credentials in the environment; the simulated model is always there.
 */
import type { BackendInfo } from "../contracts/api";

export const SIM_NOTE = "Simulated model — scores are synthetic";

/** The backends a role may choose from. `vars` are the environment variables each one needs. */
const BOTH: Array<"optimizer" | "target"> = ["optimizer", "target"];
const CATALOG: Array<{ name: string; vars: string[]; implemented: boolean; roles: Array<"optimizer" | "target"> }> = [
  { name: "sim", vars: [], implemented: true, roles: BOTH },
  { name: "openai", vars: ["OPENAI_API_KEY"], implemented: false, roles: BOTH },
  { name: "azure-openai", vars: ["AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY"], implemented: false, roles: BOTH },
  { name: "anthropic", vars: ["ANTHROPIC_API_KEY"], implemented: false, roles: BOTH },
];

export function listBackends(envVars: Record<string, unknown>): BackendInfo[] {
  return CATALOG.map((b) => {
    if (b.name === "sim") return { name: b.name, available: true, roles: b.roles, note: SIM_NOTE };
    if (!b.implemented) return { name: b.name, available: false, roles: b.roles, note: "not supported by this version yet" };
    const missing = b.vars.filter((v) => !envVars[v]);
    return { name: b.name, available: missing.length === 0, roles: b.roles, note: missing.length ? `set ${missing.join(" and ")}` : "credentials found" };
  });
}

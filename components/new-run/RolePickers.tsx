"use client";
import type { BackendInfo } from "@/lib/contracts/api";
import { Notice } from "../ui/Notice";
import { SIMULATED_LABEL } from "../ui/SimulatedBadge";
import { FieldError } from "./FieldError";
import { hasRealBackend, ROLES, type Role, type RoleChoice } from "./roles";

const ROLE_HELP: Record<Role, string> = {
  optimizer: "Reads scored trajectories and proposes edits to the skill.",
  target: "Runs the benchmark tasks with the skill in its prompt.",
};
const INPUT =
  "w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm shadow-xs focus:border-indigo-500 focus:outline-none";

/** Backend + model for each role; unavailable backends are listed, disabled, with what they need. */
export function RolePickers({
  backends,
  roles,
  presetRoles,
  notes,
  errors,
  onChange,
}: {
  backends: BackendInfo[];
  roles: Record<Role, RoleChoice>;
  presetRoles: Record<Role, RoleChoice>;
  notes: string[];
  errors: Record<string, string>;
  onChange: (role: Role, choice: RoleChoice) => void;
}) {
  const noReal = !hasRealBackend(backends);
  const pickBackend = (role: Role, backend: string) => {
    // Model names belong to a backend: the sim gets its own names, a real backend gets the preset's.
    const presetModel = presetRoles[role].backend === "sim" ? "" : presetRoles[role].model;
    onChange(role, {
      backend,
      model:
        backend === "sim"
          ? `sim-${role}`
          : backend === presetRoles[role].backend
            ? presetRoles[role].model
            : presetModel,
    });
  };
  return (
    <div className="space-y-2">
      {noReal && (
        <Notice tone="warn" testId="no-backend-notice">
          No model API key is configured, so this run uses the simulated model — scores are synthetic. Set{" "}
          <code className="font-mono">OPENAI_API_KEY</code> or <code className="font-mono">ANTHROPIC_API_KEY</code> for
          the dashboard and worker to use a real model.
        </Notice>
      )}
      {!noReal &&
        notes.map((n) => (
          <Notice key={n} tone="warn">
            {n}
          </Notice>
        ))}
      <div className="grid gap-4 md:grid-cols-2">
        {ROLES.map((role) => (
          <fieldset key={role} className="min-w-0 space-y-2 rounded-md border border-gray-200 p-3">
            <legend className="px-1 text-xs font-semibold text-gray-800 capitalize">{role}</legend>
            <p className="-mt-1 text-[11px] text-gray-500">{ROLE_HELP[role]}</p>
            <label className="block">
              <span className="text-xs font-medium text-gray-800">Backend</span>
              <select
                className={INPUT}
                value={roles[role].backend}
                onChange={(e) => pickBackend(role, e.target.value)}
                aria-label={`${role} backend`}
              >
                {!backends.some((b) => b.name === roles[role].backend) && (
                  <option value={roles[role].backend}>{roles[role].backend}</option>
                )}
                {backends
                  .filter((b) => b.roles.includes(role))
                  .map((b) => (
                    <option key={b.name} value={b.name} disabled={!b.available}>
                      {b.name}
                      {b.available ? (b.name === "sim" ? " — simulated" : "") : ` — unavailable: ${b.note}`}
                    </option>
                  ))}
              </select>
            </label>
            <FieldError field={`model.${role}_backend`} message={errors[`model.${role}_backend`]} />
            <label className="block">
              <span className="text-xs font-medium text-gray-800">Model</span>
              <input
                id={`cfg-model.${role}`}
                className={INPUT}
                value={roles[role].model}
                onChange={(e) => onChange(role, { ...roles[role], model: e.target.value })}
                aria-label={`${role} model`}
              />
            </label>
            <FieldError field={`model.${role}`} message={errors[`model.${role}`]} />
            {roles[role].backend === "sim" && <p className="text-xs text-amber-700">{SIMULATED_LABEL}</p>}
          </fieldset>
        ))}
      </div>
    </div>
  );
}

"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import type { BackendInfo, CreateRunInput, PresetInfo } from "@/lib/contracts/api";
import { api, isApiError } from "../api-client";
import { queryKeys } from "../query-keys";
import { configFieldsFor } from "./config-fields";
import { buildOverrides, initialValues, skillError, validateAll, type FormValue, type FormValues } from "./form-values";
import { initialRole, presetRole, roleOverrides, ROLES, type Role, type RoleChoice } from "./roles";
import { useCustomData } from "./use-custom-data";

export interface FormState {
  presetPath: string;
  baseline: FormValues;
  values: FormValues;
  presetRoles: Record<Role, RoleChoice>;
  roles: Record<Role, RoleChoice>;
  roleNotes: string[];
  skill: string;
}

function initForm(preset: PresetInfo, backends: BackendInfo[]): FormState {
  const baseline = initialValues(configFieldsFor(preset.env), preset.config);
  const presetRoles = { optimizer: presetRole(preset, "optimizer"), target: presetRole(preset, "target") };
  const picked = ROLES.map((r) => initialRole(presetRoles[r], backends, r));
  return {
    presetPath: preset.path,
    baseline,
    values: baseline,
    presetRoles,
    roles: { optimizer: picked[0]!.choice, target: picked[1]!.choice },
    roleNotes: picked.flatMap((p) => (p.note ? [p.note] : [])),
    skill: preset.initialSkill,
  };
}

/** Strips the "overrides." prefix zod puts on override keys, so errors land on the form's field. */
export function fieldOf(field: string | undefined): string | undefined {
  return field?.replace(/^overrides\./, "");
}

/** All state and data logic of the New run form; the components only render. */
export function useNewRunForm() {
  const router = useRouter();
  const qc = useQueryClient();
  const presets = useQuery({ queryKey: queryKeys.presets, queryFn: api.listPresets, staleTime: Infinity });
  const backends = useQuery({ queryKey: queryKeys.backends, queryFn: api.listBackends, staleTime: 60_000 });
  const [chosenPath, setChosenPath] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [form, setForm] = useState<FormState | null>(null);
  const [attempted, setAttempted] = useState(false);

  const usable = presets.data?.filter((p) => !p.error) ?? [];
  const preset = usable.find((p) => p.path === chosenPath) ?? usable[0];
  // Derived state: (re)initialise when the preset changes (allowed during render with this guard).
  if (preset && backends.data && form?.presetPath !== preset.path) setForm(initForm(preset, backends.data));
  const custom = useCustomData(preset);

  const clientErrors = useMemo(() => {
    if (!form || !preset) return {};
    const errs = validateAll(configFieldsFor(preset.env), form.values);
    for (const r of ROLES) if (!form.roles[r].model.trim()) errs[`model.${r}`] = "enter a model name";
    const tooBig = skillError(form.skill);
    if (tooBig) errs.skill = tooBig;
    return { ...errs, ...custom.errors };
  }, [form, preset, custom.errors]);

  const body: CreateRunInput | null = useMemo(() => {
    if (!form || !preset) return null;
    return {
      name: name.trim() || undefined,
      preset: preset.path,
      overrides: {
        ...buildOverrides(configFieldsFor(preset.env), form.values, form.baseline),
        ...roleOverrides(form.roles, form.presetRoles),
        ...custom.overrides,
      },
      skill: form.skill === preset.initialSkill ? undefined : form.skill,
      ...(custom.exampleData ? { exampleData: true } : {}),
    };
  }, [form, preset, name, custom.overrides, custom.exampleData]);

  // One Idempotency-Key per distinct request: resubmitting the same form after a timeout or a double click
  // answers with the run already created; a changed form is a new request.
  const submission = useRef<{ body: string; key: string } | null>(null);
  const create = useMutation({
    mutationFn: (input: CreateRunInput) => {
      const body = JSON.stringify(input);
      if (submission.current?.body !== body) submission.current = { body, key: randomKey() };
      return api.createRun(input, submission.current.key);
    },
    onSuccess: async ({ id }) => {
      submission.current = null;
      await qc.invalidateQueries({ queryKey: queryKeys.runsAll });
      router.push(`/runs/${id}`);
    },
    // Take the user to the field the server named (its message is shown under it).
    onError: (err) => {
      const field = isApiError(err) ? fieldOf(err.field) : undefined;
      if (field) document.getElementById(field === "skill" ? "seed-skill" : `cfg-${field}`)?.focus();
    },
  });
  const serverField = isApiError(create.error) ? fieldOf(create.error.field) : undefined;
  const fieldErrors: Record<string, string> = { ...clientErrors };
  if (serverField && create.error) fieldErrors[serverField] = create.error.message.replace(`${serverField}: `, "");
  const valid = Object.keys(clientErrors).length === 0;

  return {
    presets,
    backends,
    custom,
    usable,
    preset,
    form,
    name,
    setName,
    fieldErrors,
    valid,
    body: valid ? body : null,
    create,
    selectPreset: (path: string) => {
      setChosenPath(path);
      create.reset();
    },
    setValue: (key: string, value: FormValue) => {
      if (serverField === key) create.reset(); // the server's complaint is about the old value
      setForm((f) => (f ? { ...f, values: { ...f.values, [key]: value } } : f));
    },
    resetValue: (key: string) => setForm((f) => (f ? { ...f, values: { ...f.values, [key]: f.baseline[key]! } } : f)),
    setRole: (role: Role, choice: RoleChoice) => {
      if (serverField?.startsWith("model.")) create.reset();
      setForm((f) => (f ? { ...f, roles: { ...f.roles, [role]: choice } } : f));
    },
    setSkill: (skill: string) => setForm((f) => (f ? { ...f, skill } : f)),
    resetSkill: () => setForm((f) => (f && preset ? { ...f, skill: preset.initialSkill } : f)),
    /** Client-side errors block the request and are listed at the top once the user tried to submit. */
    blockedBy: attempted ? Object.entries(clientErrors) : [],
    submit: () => {
      if (!valid) {
        setAttempted(true);
        const first = Object.keys(clientErrors)[0];
        if (first) document.getElementById(first === "skill" ? "seed-skill" : `cfg-${first}`)?.focus();
        return;
      }
      if (body && !create.isPending) create.mutate(body);
    },
  };
}

/** 128 random bits as hex; `crypto.getRandomValues` also works on plain-HTTP LAN pages, unlike randomUUID. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

"use client";
import { useMutation } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { PresetInfo } from "@/lib/contracts/api";
import { api } from "../api-client";
import {
  customOverrides,
  initialCustomData,
  mappingForUpload,
  usesExampleData,
  validateCustomData,
  type CustomDataValues,
} from "./custom-data";

/**
 * State of the custom benchmark's data section (only used when the preset's benchmark is `custom`):
 * the upload, the mapping and the metric; re-initialised when the preset changes.
 */
export function useCustomData(preset: PresetInfo | undefined) {
  const active = preset?.env === "custom";
  const [state, setState] = useState<{ path: string; values: CustomDataValues; baseline: CustomDataValues } | null>(
    null,
  );
  if (active && preset && state?.path !== preset.path) {
    const baseline = initialCustomData(preset);
    setState({ path: preset.path, values: baseline, baseline });
  }
  const current = active && state?.path === preset?.path ? state : null;

  const upload = useMutation({
    mutationFn: (file: File) => api.uploadDataset(file),
    // A new file replaces the previous upload at once: if it fails, no older file is used in its place.
    onMutate: () => setState((s) => (s ? { ...s, values: { ...s.values, source: "upload", upload: null } } : s)),
    onSuccess: (info) =>
      setState((s) =>
        s ? { ...s, values: { ...s.values, upload: info, mapping: mappingForUpload(s.values.mapping, info) } } : s,
      ),
  });

  const uploadError = upload.error?.message;
  const errors = useMemo(
    () => (current ? validateCustomData(current.values, uploadError) : {}),
    [current, uploadError],
  );
  const overrides = useMemo(() => (current ? customOverrides(current.values, current.baseline) : {}), [current]);

  return {
    active,
    values: current?.values ?? null,
    errors,
    overrides,
    exampleData: current ? usesExampleData(current.values) : false,
    upload,
    set: (patch: Partial<CustomDataValues>) => setState((s) => (s ? { ...s, values: { ...s.values, ...patch } } : s)),
    setMapping: (key: keyof CustomDataValues["mapping"], column: string) =>
      setState((s) => (s ? { ...s, values: { ...s.values, mapping: { ...s.values.mapping, [key]: column } } } : s)),
    /** The user's explicit choice of the preset's example file (keeps the mapping only if no upload changed it). */
    pickExample: () => {
      upload.reset();
      setState((s) => (s ? { ...s, values: { ...s.baseline } } : s));
    },
    /** The user means to upload: until a file is stored, Start is blocked. */
    chooseUpload: () => setState((s) => (s ? { ...s, values: { ...s.values, source: "upload" } } : s)),
  };
}

export type CustomDataModel = ReturnType<typeof useCustomData>;

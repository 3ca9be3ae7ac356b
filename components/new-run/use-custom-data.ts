"use client";
import { useMutation } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import type { PresetInfo } from "@/lib/contracts/api";
import { api } from "../api-client";
import {
  customOverrides,
  initialCustomData,
  mappingForUpload,
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
    onSuccess: (info) =>
      setState((s) =>
        s ? { ...s, values: { ...s.values, upload: info, mapping: mappingForUpload(s.values.mapping, info) } } : s,
      ),
  });

  const errors = useMemo(() => (current ? validateCustomData(current.values) : {}), [current]);
  const overrides = useMemo(() => (current ? customOverrides(current.values, current.baseline) : {}), [current]);

  return {
    active,
    values: current?.values ?? null,
    errors,
    overrides,
    upload,
    set: (patch: Partial<CustomDataValues>) => setState((s) => (s ? { ...s, values: { ...s.values, ...patch } } : s)),
    setMapping: (key: keyof CustomDataValues["mapping"], column: string) =>
      setState((s) => (s ? { ...s, values: { ...s.values, mapping: { ...s.values.mapping, [key]: column } } } : s)),
    clearUpload: () => {
      upload.reset();
      setState((s) => (s ? { ...s, values: s.baseline } : s));
    },
  };
}

export type CustomDataModel = ReturnType<typeof useCustomData>;

"use client";
import { useMemo } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import type { NoiseFloorView } from "@/lib/contracts/evidence";
import type { NoiseBand } from "../charts/SelectionChart";
import { isActiveStatus } from "../query-keys";
import { useRunEvidence } from "./use-evidence";

/** Each measured epoch's band spans its steps (the whole epoch as planned, when none has committed yet). */
export function noiseBands(
  noise: readonly NoiseFloorView[],
  steps: readonly { step: number; epoch: number }[],
): NoiseBand[] {
  return noise.flatMap((n) => {
    const own = steps.filter((s) => s.epoch === n.epoch).map((s) => s.step);
    if (own.length === 0) return [];
    return [{ x1: Math.min(...own), x2: Math.max(...own), low: n.low, high: n.high }];
  });
}

export function useNoiseBands(run: RunDetail): NoiseBand[] {
  const ev = useRunEvidence(run.id, isActiveStatus(run.status));
  const noise = ev.data?.noise;
  return useMemo(() => (noise && noise.length > 0 ? noiseBands(noise, run.steps) : []), [noise, run.steps]);
}

"use client";
import { useMemo } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import type { NoiseFloorView } from "@/lib/contracts/evidence";
import type { NoiseBand } from "../charts/SelectionChart";
import { isActiveStatus } from "../query-keys";
import { useRunEvidence } from "./use-evidence";

/** The selection chart's A/A noise: bands to draw, and a plain note for epochs whose band has no width. */
export interface NoiseBandsView {
  bands: NoiseBand[];
  /** Set when some measured epoch's repeats all scored the same: there is no band to draw, and the chart says why. */
  note: string | null;
}

/** Repeats closer than this are the same score (float noise of the mean, not run-to-run noise). */
const FLAT = 1e-9;

export const NO_NOISE_NOTE = "no run-to-run noise measured: deterministic target";

/**
 * Each measured epoch's band spans its steps (an epoch without committed steps draws nothing yet). An epoch
 * whose repeats all scored the same (the simulated model, a cached or temperature-0 target) has a band of
 * zero width: it is not drawn as an invisible band, the note says so instead.
 */
export function noiseBands(
  noise: readonly NoiseFloorView[],
  steps: readonly { step: number; epoch: number }[],
): NoiseBandsView {
  const bands: NoiseBand[] = [];
  const flat: number[] = [];
  for (const n of noise) {
    if (n.high - n.low <= FLAT) {
      flat.push(n.epoch);
      continue;
    }
    const own = steps.filter((s) => s.epoch === n.epoch).map((s) => s.step);
    if (own.length > 0) bands.push({ x1: Math.min(...own), x2: Math.max(...own), low: n.low, high: n.high });
  }
  const note =
    flat.length === 0
      ? null
      : flat.length === noise.length
        ? NO_NOISE_NOTE
        : `${NO_NOISE_NOTE} in epoch${flat.length > 1 ? "s" : ""} ${flat.join(", ")}`;
  return { bands, note };
}

const NONE: NoiseBandsView = { bands: [], note: null };

export function useNoiseBands(run: RunDetail): NoiseBandsView {
  const ev = useRunEvidence(run.id, isActiveStatus(run.status));
  const noise = ev.data?.noise;
  return useMemo(() => (noise && noise.length > 0 ? noiseBands(noise, run.steps) : NONE), [noise, run.steps]);
}

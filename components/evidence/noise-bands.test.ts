import { describe, expect, it } from "vitest";
import { NO_NOISE_NOTE, noiseBands } from "./use-noise-bands";

const n = (epoch: number, scores: number[]) => ({
  epoch,
  scores,
  mean: scores.reduce((a, b) => a + b, 0) / scores.length,
  sd: 0,
  low: Math.min(...scores),
  high: Math.max(...scores),
  nItems: 6,
});
const steps = [1, 2, 3, 4].map((step) => ({ step, epoch: step <= 2 ? 1 : 2 }));

describe("noiseBands", () => {
  it("a real backend's spread draws one band per measured epoch over its steps; an epoch without steps yet draws nothing", () => {
    expect(noiseBands([n(1, [0.5, 0.67]), n(2, [0.6, 0.7, 0.65]), n(3, [0.7, 0.8])], steps)).toEqual({
      bands: [
        { x1: 1, x2: 2, low: 0.5, high: 0.67 },
        { x1: 3, x2: 4, low: 0.6, high: 0.7 },
      ],
      note: null,
    });
  });

  it("a deterministic target (every repeat the same score) draws no invisible band and says so", () => {
    expect(noiseBands([n(1, [0.5, 0.5]), n(2, [0.6, 0.6, 0.6])], steps)).toEqual({ bands: [], note: NO_NOISE_NOTE });
    expect(NO_NOISE_NOTE).toBe("no run-to-run noise measured: deterministic target");
    // Only some epochs flat: the others keep their band and the note names the flat ones.
    expect(noiseBands([n(1, [0.5, 0.5]), n(2, [0.6, 0.7])], steps)).toEqual({
      bands: [{ x1: 3, x2: 4, low: 0.6, high: 0.7 }],
      note: `${NO_NOISE_NOTE} in epoch 1`,
    });
  });
});

/**
 * Counters behind `GET /stats`. The backends' retry and concurrency tests read them, so `inFlight` is
 * live state that a reset keeps, while everything else starts again from zero.
 */
import { FAULT_KINDS, type FaultKind, type MockEndpoint, type MockRole, type MockStats } from "./types";

export interface StatsRecorder {
  snapshot(): MockStats;
  reset(): void;
  /** A request arrived; returns the function to call exactly once when its connection is done. */
  open(endpoint: MockEndpoint): () => void;
  role(role: MockRole): void;
  fault(kind: FaultKind): void;
  status(code: number): void;
  aborted(): void;
  tokens(prompt: number, completion: number): void;
}

function emptyFaults(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
}

export function createStatsRecorder(): StatsRecorder {
  let s: MockStats = fresh(0);

  function fresh(inFlight: number): MockStats {
    return {
      requests: 0,
      byEndpoint: {},
      byRole: { optimizer: 0, target: 0 },
      faults: emptyFaults(),
      byStatus: {},
      aborted: 0,
      tokens: { prompt: 0, completion: 0, total: 0 },
      inFlight,
      maxInFlight: inFlight,
    };
  }

  return {
    snapshot: () => structuredClone(s),
    reset() {
      s = fresh(s.inFlight);
    },
    open(endpoint) {
      s.requests += 1;
      s.byEndpoint[endpoint] = (s.byEndpoint[endpoint] ?? 0) + 1;
      s.inFlight += 1;
      s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        s.inFlight -= 1;
      };
    },
    role(role) {
      s.byRole[role] += 1;
    },
    fault(kind) {
      s.faults[kind] += 1;
    },
    status(code) {
      s.byStatus[String(code)] = (s.byStatus[String(code)] ?? 0) + 1;
    },
    aborted() {
      s.aborted += 1;
    },
    tokens(prompt, completion) {
      s.tokens.prompt += prompt;
      s.tokens.completion += completion;
      s.tokens.total += prompt + completion;
    },
  };
}

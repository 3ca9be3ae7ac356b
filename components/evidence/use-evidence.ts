"use client";
import { useQuery } from "@tanstack/react-query";
import type { BlameLineView, LeakageReport, ProposalRow, RunEvidence } from "@/lib/contracts/evidence";
import { request } from "../api-client";

/** Poll while the run is active (the evidence grows with each step); a finished run's evidence is fixed. */
const POLL_MS = 5_000;

const path = (id: string, what: string) => `/api/runs/${encodeURIComponent(id)}/${what}`;
const poll = (active: boolean) => (active ? POLL_MS : false);

export function useRunEvidence(id: string, active: boolean) {
  return useQuery({
    queryKey: ["run", id, "evidence"],
    queryFn: () => request<RunEvidence>(path(id, "evidence")),
    refetchInterval: poll(active),
  });
}

export function useRunProposals(id: string, active: boolean) {
  return useQuery({
    queryKey: ["run", id, "proposals"],
    queryFn: async () => (await request<{ rows: ProposalRow[] }>(path(id, "proposals"))).rows,
    refetchInterval: poll(active),
  });
}

/** `enabled` false until the run has a best skill (before that the blame is a 409, not an answer). */
export function useRunBlame(id: string, active: boolean, enabled = true) {
  return useQuery({
    queryKey: ["run", id, "blame"],
    queryFn: async () => (await request<{ lines: BlameLineView[] }>(path(id, "blame"))).lines,
    refetchInterval: poll(active),
    enabled,
  });
}

export function useRunLeakage(id: string, active: boolean) {
  return useQuery({
    queryKey: ["run", id, "leakage"],
    queryFn: () => request<LeakageReport>(path(id, "leakage")),
    refetchInterval: active ? 30_000 : false,
  });
}

"use client";
import { useQuery } from "@tanstack/react-query";
import type { BlameLineView, LeakageReport, ProposalRow, RunEvidence } from "@/lib/contracts/evidence";
import { ApiError } from "../api-client";

/** Poll while the run is active (the evidence grows with each step); a finished run's evidence is fixed. */
const POLL_MS = 5_000;

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  const body = (await res.json().catch(() => null)) as
    (T & { error?: { code?: string; message?: string; field?: string } }) | null;
  if (!res.ok)
    throw new ApiError({
      status: res.status,
      code: body?.error?.code ?? "INTERNAL",
      message: body?.error?.message ?? `${res.status} ${res.statusText}`,
      field: body?.error?.field,
    });
  return body as T;
}

const path = (id: string, what: string) => `/api/runs/${encodeURIComponent(id)}/${what}`;
const poll = (active: boolean) => (active ? POLL_MS : false);

export function useRunEvidence(id: string, active: boolean) {
  return useQuery({
    queryKey: ["run", id, "evidence"],
    queryFn: () => getJson<RunEvidence>(path(id, "evidence")),
    refetchInterval: poll(active),
  });
}

export function useRunProposals(id: string, active: boolean) {
  return useQuery({
    queryKey: ["run", id, "proposals"],
    queryFn: async () => (await getJson<{ rows: ProposalRow[] }>(path(id, "proposals"))).rows,
    refetchInterval: poll(active),
  });
}

export function useRunBlame(id: string, active: boolean) {
  return useQuery({
    queryKey: ["run", id, "blame"],
    queryFn: async () => (await getJson<{ lines: BlameLineView[] }>(path(id, "blame"))).lines,
    refetchInterval: poll(active),
  });
}

export function useRunLeakage(id: string, active: boolean) {
  return useQuery({
    queryKey: ["run", id, "leakage"],
    queryFn: () => getJson<LeakageReport>(path(id, "leakage")),
    refetchInterval: active ? 30_000 : false,
  });
}

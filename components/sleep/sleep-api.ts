"use client";
/**
 * The dashboard's Sleep fetchers and hooks. Non-2xx answers become `ApiError`s carrying the field the
 * server named. While a night is queued or running the lists and the night poll every second, so its
 * status is live without a refresh button.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { ApiError, shouldRetry, UNREACHABLE_MESSAGE } from "@/components/api-client";
import {
  SLEEP_ACTIVE_STATUSES,
  type SleepNightDetail,
  type SleepNightSummary,
  type SleepProjectInput,
  type SleepProjectView,
} from "@/lib/contracts/sleep";

const ErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

async function call<T>(url: string, method = "GET", body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => {
    // No HTTP answer at all: say so in plain words rather than the browser's "Failed to fetch".
    throw new ApiError({ status: 0, code: "UNREACHABLE", message: UNREACHABLE_MESSAGE });
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported by status below
  }
  if (!res.ok) {
    const parsed = ErrorBodySchema.safeParse(data);
    throw new ApiError(
      parsed.success
        ? { status: res.status, ...parsed.data.error }
        : {
            status: res.status,
            code: `HTTP_${res.status}`,
            message: `${res.status} ${res.statusText || "request failed"}`,
          },
    );
  }
  return data as T;
}

export const sleepKeys = {
  projects: ["sleep", "projects"] as const,
  nights: ["sleep", "nights"] as const,
  night: (id: string) => ["sleep", "night", id] as const,
};

const isActive = (s: string) => (SLEEP_ACTIVE_STATUSES as readonly string[]).includes(s);

export function useSleepProjects() {
  return useQuery({
    queryKey: sleepKeys.projects,
    queryFn: () => call<SleepProjectView[]>("/api/sleep/projects"),
    retry: shouldRetry,
  });
}

export function useSleepNights() {
  return useQuery({
    queryKey: sleepKeys.nights,
    queryFn: () => call<SleepNightSummary[]>("/api/sleep/nights"),
    retry: shouldRetry,
    refetchInterval: (q) => (q.state.data?.some((n) => isActive(n.status)) ? 1000 : 10_000),
  });
}

export function useSleepNight(id: string) {
  return useQuery({
    queryKey: sleepKeys.night(id),
    queryFn: () => call<SleepNightDetail>(`/api/sleep/nights/${id}`),
    retry: shouldRetry,
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? 1000 : false),
  });
}

function useInvalidateSleep() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ["sleep"] });
}

export function useSaveProject(id: string | null) {
  const done = useInvalidateSleep();
  return useMutation({
    mutationFn: (input: SleepProjectInput) =>
      id
        ? call<SleepProjectView>(`/api/sleep/projects/${id}`, "PUT", input)
        : call<SleepProjectView>("/api/sleep/projects", "POST", input),
    onSuccess: done,
  });
}

export function useRunNight() {
  const done = useInvalidateSleep();
  return useMutation({
    mutationFn: (v: { projectId: string; dryRun: boolean }) =>
      call<{ id: string; queued: boolean }>(`/api/sleep/projects/${v.projectId}/nights`, "POST", { dryRun: v.dryRun }),
    onSuccess: done,
  });
}

export function useNightAction(id: string) {
  const done = useInvalidateSleep();
  return useMutation({
    mutationFn: (action: "adopt" | "discard") =>
      call<{ status: string; updatedPaths?: string[]; removedDir?: string }>(`/api/sleep/nights/${id}`, "PATCH", {
        action,
      }),
    onSuccess: done,
  });
}

export function useDeleteProject(id: string) {
  const done = useInvalidateSleep();
  return useMutation({
    mutationFn: () => call<{ deleted: string; nightsDeleted: number }>(`/api/sleep/projects/${id}`, "DELETE"),
    onSuccess: done,
  });
}

/**
 * Typed fetchers for the dashboard's HTTP API (lib/contracts/api.ts). Every non-2xx answer becomes an
 * `ApiError` carrying the status, the stable code and the offending field when the server named one.
 */
import { z } from "zod";
import type {
  BackendInfo,
  CompareResponse,
  CreateRunInput,
  CreateRunResponse,
  DatasetFingerprint,
  Estimate,
  EvalResultRow,
  RunAction,
  PresetInfo,
  RunDetail,
  RunListResponse,
  StepDetail,
  UploadInfo,
} from "@/lib/contracts/api";
import type { DeleteRunResponse, RunAnnotations, RunAnnotationsInput } from "@/lib/contracts/run-list";
import { runsQueryString, type RunsView } from "./runs/runs-view";

const ErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;

  constructor(opts: { status: number; code: string; message: string; field?: string }) {
    super(opts.message);
    this.name = "ApiError";
    this.status = opts.status;
    this.code = opts.code;
    this.field = opts.field;
  }
}

export function isApiError(e: unknown, status?: number): e is ApiError {
  return e instanceof ApiError && (status === undefined || e.status === status);
}

/** TanStack Query retry policy: client errors (4xx) are final; others get two more tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/** What a page shows when the server cannot be reached at all (instead of the browser's "Failed to fetch"). */
export const UNREACHABLE_MESSAGE = "The dashboard server is not answering (stopped or restarting); retrying…";

export async function request<T>(url: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const { json, ...rest } = init ?? {};
  const res = await fetch(url, {
    ...rest,
    headers: {
      ...(rest.headers as Record<string, string> | undefined),
      accept: "application/json",
      ...(json === undefined ? {} : { "content-type": "application/json" }),
    },
    body: json === undefined ? rest.body : JSON.stringify(json),
  }).catch((err: unknown) => {
    // fetch rejects only when no HTTP answer came back (server down, network gone) or on abort.
    if ((err as { name?: string })?.name === "AbortError") throw err;
    throw new ApiError({ status: 0, code: "UNREACHABLE", message: UNREACHABLE_MESSAGE });
  });
  if (!res.ok) throw await toApiError(res);
  return (await res.json()) as T;
}

async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a proxy page, a crash): fall back to the status line below
  }
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) return new ApiError({ status: res.status, ...parsed.data.error });
  return new ApiError({
    status: res.status,
    code: `HTTP_${res.status}`,
    message: `${res.status} ${res.statusText || "request failed"}`,
  });
}

export const api = {
  listRuns(view: RunsView): Promise<RunListResponse> {
    return request(`/api/runs?${runsQueryString(view, { forApi: true })}`);
  },
  setRunAnnotations(id: string, body: RunAnnotationsInput): Promise<RunAnnotations> {
    return request(`/api/runs/${encodeURIComponent(id)}/annotations`, { method: "PUT", json: body });
  },
  deleteRun(id: string): Promise<DeleteRunResponse> {
    return request(`/api/runs/${encodeURIComponent(id)}`, { method: "DELETE" });
  },
  getRun(id: string): Promise<RunDetail> {
    return request(`/api/runs/${encodeURIComponent(id)}`);
  },
  getStep(id: string, step: number): Promise<StepDetail> {
    return request(`/api/runs/${encodeURIComponent(id)}/steps/${step}`);
  },
  async listEvals(id: string, filter: { step: number; label: string }): Promise<EvalResultRow[]> {
    const q = new URLSearchParams({ step: String(filter.step), label: filter.label });
    return (await request<{ results: EvalResultRow[] }>(`/api/runs/${encodeURIComponent(id)}/evals?${q}`)).results;
  },
  /** `idempotencyKey`: the same key for a retried submission answers with the run it created (never a second one). */
  createRun(input: CreateRunInput, idempotencyKey?: string): Promise<CreateRunResponse> {
    return request("/api/runs", {
      method: "POST",
      json: input,
      headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : undefined,
    });
  },
  estimateRun(input: CreateRunInput, signal?: AbortSignal): Promise<Estimate> {
    return request("/api/runs/estimate", { method: "POST", json: input, signal });
  },
  actOnRun(id: string, action: RunAction): Promise<{ status: string }> {
    return request(`/api/runs/${encodeURIComponent(id)}`, { method: "PATCH", json: action });
  },
  async listPresets(): Promise<PresetInfo[]> {
    return (await request<{ presets: PresetInfo[] }>("/api/presets")).presets;
  },
  async listBackends(): Promise<BackendInfo[]> {
    return (await request<{ backends: BackendInfo[] }>("/api/backends")).backends;
  },
  /** Stores a .jsonl/.csv file for the custom benchmark (multipart field `file`). */
  uploadDataset(file: File): Promise<UploadInfo> {
    const body = new FormData();
    body.set("file", file);
    return request("/api/uploads", { method: "POST", body });
  },
  getRunDataset(id: string): Promise<DatasetFingerprint> {
    return request(`/api/runs/${encodeURIComponent(id)}/dataset`);
  },
  /** The exact bytes of a run's best skill (409 before the seed skill has been scored). */
  async getBestSkill(id: string): Promise<string> {
    const res = await fetch(exportUrl(id, "skill")).catch(() => {
      throw new ApiError({ status: 0, code: "UNREACHABLE", message: UNREACHABLE_MESSAGE });
    });
    if (!res.ok) throw await toApiError(res);
    return res.text();
  },
  compareRuns(ids: string[]): Promise<CompareResponse> {
    return request(`/api/runs/compare?ids=${ids.map(encodeURIComponent).join(",")}`);
  },
};

/** Download links (plain navigations: the server answers with an attachment). */
export function exportUrl(id: string, what: "skill" | "bundle"): string {
  return `/api/runs/${encodeURIComponent(id)}/export?what=${what}`;
}

export function eventsUrl(id: string, cursor?: number): string {
  const base = `/api/runs/${encodeURIComponent(id)}/events`;
  return cursor ? `${base}?cursor=${cursor}` : base;
}

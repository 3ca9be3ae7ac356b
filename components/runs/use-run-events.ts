"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { RunDetail } from "@/lib/contracts/api";
import { parseStreamFrame, type EventFrame } from "@/lib/contracts/stored-events-stream";
import { eventsUrl } from "../api-client";
import { isActiveStatus, queryKeys } from "../query-keys";
import { createCoalescedRunner } from "./coalesce";
import { connectionState, type StreamState } from "./connection";
import { frameStep, MAX_FRAMES, mergeFrames } from "./event-frames";

export type { StreamState };

/** Frames arriving within this window are applied to the cache together (replays come in bursts). */
const FLUSH_MS = 100;
/** At most one run-detail refetch in flight, and this long between one and the trailing next. */
const REFETCH_GAP_MS = 400;
/** After the server refuses the stream (EventSource gives up), try again this much later while active. */
const RETRY_MS = 5_000;

/**
 * Tails `/api/runs/{id}/events` with EventSource. Each frame's event is parsed with its stored schema
 * (`parseStreamFrame`; one that does not parse is kept as a problem line), appended to
 * `["run-events", id]` (read it with `useRunFrames`), and triggers a coalesced refetch of `["run", id]` (and
 * of the selected step when the frame is about it). A finished run's stream is read once for its history, then
 * closed; it reopens on resume.
 */
export function useRunEvents(
  runId: string,
  opts: {
    status: string | undefined;
    selectedStep: number | null;
    lastEventSeq: number | undefined;
    /** The last poll of the run got no HTTP answer at all (server down or restarting). */
    unreachable?: boolean;
  },
) {
  const qc = useQueryClient();
  const active = isActiveStatus(opts.status);
  const activeRef = useRef(active);
  const stepRef = useRef(opts.selectedStep);
  const lastSeqRef = useRef(opts.lastEventSeq ?? 0);
  // Refs mirror the latest props for the stream's callbacks; they are written after render, never during it.
  useEffect(() => {
    activeRef.current = active;
    stepRef.current = opts.selectedStep;
    lastSeqRef.current = opts.lastEventSeq ?? 0;
  });
  const [historyRead, setHistoryRead] = useState(false);
  const [retryTick, setRetryTick] = useState(0);
  const [state, setState] = useState<StreamState>("connecting");
  const offline = useOffline();
  const connect = opts.status !== undefined && (active || !historyRead);

  useEffect(() => {
    if (!connect) return;
    const runRefetch = createCoalescedRunner(() => qc.refetchQueries({ queryKey: queryKeys.run(runId), exact: true }), {
      minGapMs: REFETCH_GAP_MS,
    });
    const stepRefetch = createCoalescedRunner(() =>
      stepRef.current === null
        ? Promise.resolve()
        : qc.refetchQueries({ queryKey: queryKeys.step(runId, stepRef.current), exact: true }),
    );
    let buffer: EventFrame[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const batch = buffer;
      buffer = [];
      qc.setQueryData<EventFrame[]>(queryKeys.runEvents(runId), (old) => mergeFrames(old, batch));
      // Replayed history the loaded detail already reflects (seq ≤ its lastEventSeq) needs no refetch.
      const seen = qc.getQueryData<RunDetail>(queryKeys.run(runId))?.lastEventSeq ?? 0;
      const fresh = batch.filter((f) => f.seq > seen);
      if (fresh.length === 0) return;
      runRefetch.request();
      if (fresh.some((f) => frameStep(f) !== null && frameStep(f) === stepRef.current)) stepRefetch.request();
    };
    // Resume after what we hold; on a first visit skip history the log would drop anyway (it keeps MAX_FRAMES).
    const cached = qc.getQueryData<EventFrame[]>(queryKeys.runEvents(runId));
    const cursor = cached?.at(-1)?.seq ?? Math.max(0, lastSeqRef.current - MAX_FRAMES);
    const es = new EventSource(eventsUrl(runId, cursor));
    let retry: ReturnType<typeof setTimeout> | null = null;
    let opened = false;
    es.onopen = () => {
      setState("live");
      // After an outage the detail may be behind what the stream replays (or still show the failed fetch).
      // The first open right after a good load needs no second copy of the detail (448 KB at 1,000 steps):
      // it already reflects every frame held, and a replayed frame it does not reflect asks for one itself.
      const detail = qc.getQueryState<RunDetail>(queryKeys.run(runId));
      const held = qc.getQueryData<EventFrame[]>(queryKeys.runEvents(runId))?.at(-1)?.seq ?? 0;
      const upToDate = detail?.status === "success" && (detail.data?.lastEventSeq ?? 0) >= held;
      if (opened || retryTick > 0 || !upToDate) runRefetch.request();
      opened = true;
    };
    es.onmessage = (ev: MessageEvent<string>) => {
      // A frame whose payload does not parse is kept with its problem line; only a non-frame is dropped.
      const parsed = parseStreamFrame(ev.data);
      if (!parsed) {
        console.warn(`[run ${runId}] ignored a malformed event frame (id ${ev.lastEventId || "none"})`);
        return;
      }
      buffer.push(parsed);
      timer ??= setTimeout(flush, FLUSH_MS);
    };
    // The server sends `event: end` once a finished run's history is out; it will never add more.
    es.addEventListener("end", () => {
      es.close();
      if (buffer.length > 0) flush();
      else if (activeRef.current) runRefetch.request(); // our copy still says active: catch up
      setHistoryRead(true);
      setState("closed");
    });
    es.onerror = () => {
      if (!activeRef.current) {
        // The server ends a finished run's stream once its history is sent: that is the end, not an outage.
        es.close();
        setHistoryRead(true);
        setState("closed");
        return;
      }
      if (es.readyState === EventSource.CLOSED) {
        setState("reconnecting");
        retry = setTimeout(() => setRetryTick((t) => t + 1), RETRY_MS);
      } else {
        setState("reconnecting"); // the browser reconnects by itself with Last-Event-ID
      }
    };
    return () => {
      es.close();
      if (timer) clearTimeout(timer);
      if (retry) clearTimeout(retry);
      if (buffer.length > 0)
        qc.setQueryData<EventFrame[]>(queryKeys.runEvents(runId), (old) => mergeFrames(old, buffer));
      runRefetch.cancel();
      stepRefetch.cancel();
    };
  }, [qc, runId, connect, retryTick]);

  const shown = connectionState(connect ? state : "closed", { unreachable: opts.unreachable ?? false, offline });
  return { state: shown };
}

const NO_FRAMES: EventFrame[] = [];

/**
 * The frames `useRunEvents` has received for the run (`["run-events", id]`). A hook of its own so that only
 * the panel showing them re-renders on each batch, not the whole run page with its charts.
 */
export function useRunFrames(runId: string): EventFrame[] {
  const qc = useQueryClient();
  return (
    useQuery({
      queryKey: queryKeys.runEvents(runId),
      // Never fetched: the stream writes it. Should TanStack call this anyway, keep what we hold.
      queryFn: () => qc.getQueryData<EventFrame[]>(queryKeys.runEvents(runId)) ?? [],
      staleTime: Infinity,
      gcTime: 10 * 60_000,
    }).data ?? NO_FRAMES
  );
}

/** True while the browser says it has no network (the `offline` / `online` window events). */
function useOffline(): boolean {
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return offline;
}

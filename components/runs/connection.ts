/**
 * What the run page says about its live connection. The stream's own state is not enough: a server that
 * stops without closing the socket, or a laptop that lost its network, leaves an EventSource silently
 * "open". A failed poll of the run (no HTTP answer at all) or the browser going offline overrides it.
 */
export type StreamState = "connecting" | "live" | "reconnecting" | "closed";

export function connectionState(stream: StreamState, signals: { unreachable: boolean; offline: boolean }): StreamState {
  if (stream === "closed") return "closed"; // a finished run's history is read once; nothing is live
  if (signals.unreachable || signals.offline) return "reconnecting";
  return stream;
}

export const STREAM_LABEL: Record<StreamState, { text: string; dot: string; title: string }> = {
  connecting: { text: "connecting…", dot: "bg-gray-400", title: "Opening the live stream" },
  live: { text: "live", dot: "bg-green-500", title: "Updates arrive as the worker commits them" },
  reconnecting: {
    text: "reconnecting…",
    dot: "bg-amber-500",
    title: "The live stream dropped; the page tries again every few seconds and catches up when the server answers",
  },
  closed: { text: "", dot: "", title: "" },
};

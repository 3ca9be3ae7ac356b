"use client";
import { useMemo, useState } from "react";
import type { EventFrame } from "@/lib/contracts/stored-events-stream";
import { Card } from "../ui/Card";
import { ShowMore } from "../ui/ShowMore";
import { frameStep, frameTone, summarizeFrame } from "./event-frames";

const PAGE = 150;
const TONE = {
  error: "text-red-700",
  warn: "text-amber-700",
  good: "text-emerald-700",
  plain: "text-gray-800",
} as const;

function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString("en-GB", { hour12: false });
}

/** The run's events as they stream in, latest first (kept in the ["run-events", id] cache). */
export function EventLog({ frames, total }: { frames: EventFrame[]; total: number }) {
  const [limit, setLimit] = useState(PAGE);
  const latestFirst = useMemo(() => [...frames].reverse(), [frames]);
  return (
    <Card
      title={`Event log (${total.toLocaleString("en-US")})`}
      actions={
        total > frames.length ? (
          <span className="text-gray-500">latest {frames.length.toLocaleString("en-US")} kept here</span>
        ) : null
      }
      className="flex flex-col"
      bodyClassName="relative min-h-[420px] flex-1"
      testId="event-log"
    >
      {frames.length === 0 ? (
        <p className="px-3 py-4 text-center text-gray-500">No events received yet.</p>
      ) : (
        // Absolutely placed: the log scrolls inside whatever height the neighbouring panels give the row.
        <div className="absolute inset-0 overflow-y-auto">
          <ol className="divide-y divide-gray-100 font-mono text-xs">
            {latestFirst.slice(0, limit).map((f) => {
              const step = frameStep(f);
              return (
                <li key={f.seq} className="grid grid-cols-[3.5rem_4.5rem_9.5rem_1fr] gap-2 px-3 py-1 hover:bg-gray-50">
                  <span className="text-right text-gray-400">#{f.seq}</span>
                  <span className="text-gray-500">{time(f.createdAt)}</span>
                  <span className={`truncate font-medium ${TONE[frameTone(f)]}`} title={f.type}>
                    {f.type}
                  </span>
                  <span className="min-w-0 break-words text-gray-700">
                    {step !== null && <span className="mr-1 text-gray-400">[step {step}]</span>}
                    {summarizeFrame(f)}
                  </span>
                </li>
              );
            })}
          </ol>
          <ShowMore
            shown={Math.min(limit, latestFirst.length)}
            total={latestFirst.length}
            step={PAGE * 2}
            onChange={setLimit}
            noun="events"
          />
        </div>
      )}
    </Card>
  );
}

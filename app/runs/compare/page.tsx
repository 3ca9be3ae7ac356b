import type { Metadata } from "next";
import { Suspense } from "react";
import { ComparePage } from "@/components/compare/ComparePage";

export const metadata: Metadata = { title: "Compare runs" };

export default function Compare() {
  return (
    <Suspense fallback={<p className="text-gray-500">Loading…</p>}>
      <ComparePage />
    </Suspense>
  );
}

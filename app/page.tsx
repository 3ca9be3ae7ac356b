import { Suspense } from "react";
import { RunsPage } from "@/components/runs/RunsPage";

export default function Home() {
  return (
    <Suspense fallback={<p className="text-gray-500">Loading runs…</p>}>
      <RunsPage />
    </Suspense>
  );
}

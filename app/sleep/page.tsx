import type { Metadata } from "next";
import { SleepPage } from "@/components/sleep/SleepPage";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sleep" };

export default function Page() {
  return <SleepPage />;
}

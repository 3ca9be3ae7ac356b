import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NightView } from "@/components/sleep/NightView";
import { SleepIdSchema } from "@/lib/contracts/sleep";
import { findNight } from "@/lib/db/sleep-nights";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sleep night" };

type Props = { params: Promise<{ id: string }> };

/** An unknown or malformed id answers with a real 404. */
export default async function Page({ params }: Props) {
  const { id } = await params;
  if (!SleepIdSchema.safeParse(id).success || !(await findNight(id))) notFound();
  return <NightView id={id} />;
}

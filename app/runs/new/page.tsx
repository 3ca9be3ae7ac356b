import type { Metadata } from "next";
import { NewRunForm } from "@/components/new-run/NewRunForm";

export const metadata: Metadata = { title: "New run" };

export default function NewRunPage() {
  return <NewRunForm />;
}

import type { ReactNode } from "react";

export type Tone = "gray" | "blue" | "green" | "emerald" | "red" | "amber" | "orange" | "violet";

const TONES: Record<Tone, string> = {
  gray: "bg-gray-100 text-gray-700 ring-gray-200",
  blue: "bg-blue-50 text-blue-700 ring-blue-200",
  green: "bg-green-50 text-green-700 ring-green-200",
  emerald: "bg-emerald-600 text-white ring-emerald-600",
  red: "bg-red-50 text-red-700 ring-red-200",
  amber: "bg-amber-50 text-amber-800 ring-amber-200",
  orange: "bg-orange-50 text-orange-800 ring-orange-300",
  violet: "bg-violet-50 text-violet-700 ring-violet-200",
};

export function Badge({
  tone = "gray",
  children,
  title,
  testId,
  className = "",
}: {
  tone?: Tone;
  children: ReactNode;
  title?: string;
  testId?: string;
  className?: string;
}) {
  return (
    <span
      title={title}
      data-testid={testId}
      className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone]} ${className}`}
    >
      {children}
    </span>
  );
}

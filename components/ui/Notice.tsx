import type { ReactNode } from "react";

const TONES = {
  info: "border-blue-200 bg-blue-50 text-blue-900",
  warn: "border-amber-200 bg-amber-50 text-amber-900",
  error: "border-red-200 bg-red-50 text-red-900",
} as const;

/** An inline message box (errors, warnings, explanations); `role=alert` for errors. */
export function Notice({
  tone = "info",
  title,
  children,
  actions,
  testId,
}: {
  tone?: keyof typeof TONES;
  title?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={`flex items-start justify-between gap-3 rounded-md border px-3 py-2 text-sm ${TONES[tone]}`}
    >
      <div className="min-w-0 wrap-anywhere">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className={title ? "mt-0.5" : ""}>{children}</div>}
      </div>
      {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
    </div>
  );
}

import type { ReactNode } from "react";

/** A titled panel; `actions` sit at the right of the title bar. */
export function Card({
  title,
  actions,
  children,
  className = "",
  bodyClassName = "p-3",
  testId,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
  testId?: string;
}) {
  return (
    <section
      className={`min-w-0 rounded-lg border border-gray-200 bg-white shadow-xs ${className}`}
      data-testid={testId}
    >
      {(title || actions) && (
        <header className="flex min-h-10 flex-wrap items-center justify-between gap-x-3 gap-y-1 border-b border-gray-100 px-3 py-2">
          {title && <h2 className="text-sm font-semibold text-gray-900">{title}</h2>}
          {actions && <div className="flex min-w-0 flex-wrap items-center gap-2 text-xs">{actions}</div>}
        </header>
      )}
      <div className={bodyClassName}>{children}</div>
    </section>
  );
}

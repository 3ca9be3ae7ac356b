"use client";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * A modal on the native `<dialog>` (focus stays inside, Escape closes, the page behind is inert).
 * Rendered only while open; `onClose` runs for Escape, the backdrop and the caller's own buttons.
 */
export function Dialog({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose(); // a click on the backdrop, not inside the box
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-gray-200 bg-white p-0 text-sm shadow-xl backdrop:bg-gray-900/30"
    >
      <div className="space-y-3 p-4">
        <h2 className="text-base font-semibold text-gray-900">{title}</h2>
        {children}
      </div>
    </dialog>
  );
}

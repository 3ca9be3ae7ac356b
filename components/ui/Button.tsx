import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from "react";
import { HoverPrefetchLink } from "./HoverPrefetchLink";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";

const BASE =
  "inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-50";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 disabled:hover:bg-indigo-600",
  secondary: "border border-gray-300 bg-white text-gray-800 shadow-sm hover:bg-gray-50 disabled:hover:bg-white",
  danger: "border border-red-300 bg-white text-red-700 shadow-sm hover:bg-red-50 disabled:hover:bg-white",
  ghost: "text-gray-700 hover:bg-gray-100",
};

export function buttonClass(variant: ButtonVariant = "secondary", extra = ""): string {
  return `${BASE} ${VARIANTS[variant]} ${extra}`;
}

export function Button({
  variant = "secondary",
  className = "",
  type = "button",
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClass(variant, className)} {...rest} />;
}

/** An internal navigation styled as a button, prefetched on hover or focus (not in view). */
export function ButtonLink({
  href,
  variant = "secondary",
  className = "",
  children,
  ...rest
}: { href: string; variant?: ButtonVariant; className?: string; children: ReactNode } & Omit<
  AnchorHTMLAttributes<HTMLAnchorElement>,
  "href"
>) {
  return (
    <HoverPrefetchLink href={href} className={buttonClass(variant, className)} {...rest}>
      {children}
    </HoverPrefetchLink>
  );
}

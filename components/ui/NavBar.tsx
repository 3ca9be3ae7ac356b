"use client";
import { usePathname } from "next/navigation";
import { HoverPrefetchLink } from "./HoverPrefetchLink";

const LINKS = [
  { href: "/", label: "Runs", active: (p: string) => p === "/" || (p.startsWith("/runs/") && p !== "/runs/new") },
  { href: "/runs/new", label: "New run", active: (p: string) => p === "/runs/new" },
  { href: "/sleep", label: "Sleep", active: (p: string) => p === "/sleep" || p.startsWith("/sleep/") },
];

/**
 * The links are prefetched when the pointer or the focus reaches them (HoverPrefetchLink): in view they are
 * on every page, and on a 1,000-step run page the run's detail waited behind their prefetches.
 */
export function NavBar() {
  const pathname = usePathname() ?? "/";
  return (
    <header className="sticky top-0 z-20 border-b border-gray-200 bg-white">
      <nav className="mx-auto flex h-12 w-full max-w-[1600px] items-center gap-6 px-4 lg:px-6" aria-label="Main">
        <HoverPrefetchLink href="/" className="flex items-center gap-2 font-semibold text-gray-900">
          <span
            className="grid size-6 place-items-center rounded bg-indigo-600 text-xs font-bold text-white"
            aria-hidden
          >
            S
          </span>
          SkillOpt
        </HoverPrefetchLink>
        <ul className="flex items-center gap-1">
          {LINKS.map((l) => (
            <li key={l.href}>
              <HoverPrefetchLink
                href={l.href}
                aria-current={l.active(pathname) ? "page" : undefined}
                className={`rounded-md px-2.5 py-1.5 font-medium ${
                  l.active(pathname) ? "bg-gray-100 text-gray-900" : "text-gray-600 hover:text-gray-900"
                }`}
              >
                {l.label}
              </HoverPrefetchLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

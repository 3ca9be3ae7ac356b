"use client";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";

const LINKS = [
  { href: "/", label: "Runs", active: (p: string) => p === "/" || (p.startsWith("/runs/") && p !== "/runs/new") },
  { href: "/runs/new", label: "New run", active: (p: string) => p === "/runs/new" },
  { href: "/sleep", label: "Sleep", active: (p: string) => p === "/sleep" || p.startsWith("/sleep/") },
];

/**
 * The links are prefetched when the pointer or the focus reaches them, not when they come into view: in
 * view they are on every page, and Next's viewport prefetch rendered the runs list, the new-run form and
 * the Sleep page on the server (twice each) at every page load, while that page's own data was being
 * asked for — on a 1,000-step run page, the run's detail waited behind them.
 */
export function NavBar() {
  const pathname = usePathname() ?? "/";
  const router = useRouter();
  return (
    <header className="sticky top-0 z-20 border-b border-gray-200 bg-white">
      <nav className="mx-auto flex h-12 w-full max-w-[1600px] items-center gap-6 px-4 lg:px-6" aria-label="Main">
        <Link
          href="/"
          prefetch={false}
          onMouseEnter={() => router.prefetch("/")}
          className="flex items-center gap-2 font-semibold text-gray-900"
        >
          <span
            className="grid size-6 place-items-center rounded bg-indigo-600 text-xs font-bold text-white"
            aria-hidden
          >
            S
          </span>
          SkillOpt
        </Link>
        <ul className="flex items-center gap-1">
          {LINKS.map((l) => (
            <li key={l.href}>
              <Link
                href={l.href}
                prefetch={false}
                onMouseEnter={() => router.prefetch(l.href)}
                onFocus={() => router.prefetch(l.href)}
                aria-current={l.active(pathname) ? "page" : undefined}
                className={`rounded-md px-2.5 py-1.5 font-medium ${
                  l.active(pathname) ? "bg-gray-100 text-gray-900" : "text-gray-600 hover:text-gray-900"
                }`}
              >
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

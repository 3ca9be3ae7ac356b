"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

/**
 * A Next link prefetched when the pointer or the focus reaches it, not when it comes into view. In view,
 * Next prefetches every link on a page as soon as it loads: the nav bar's links and the runs table's
 * "New run" button made the server render the runs list, the new-run form and the Sleep page (twice each)
 * at every page load, on its one thread, while the page's own data was being asked for.
 */
export function HoverPrefetchLink({
  href,
  onMouseEnter,
  onFocus,
  ...rest
}: Omit<ComponentProps<typeof Link>, "href" | "prefetch"> & { href: string }) {
  const router = useRouter();
  return (
    <Link
      href={href}
      prefetch={false}
      onMouseEnter={(e) => {
        router.prefetch(href);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        router.prefetch(href);
        onFocus?.(e);
      }}
      {...rest}
    />
  );
}

/**
 * Request guard for the dashboard and API. Mutating requests must come from this origin (CSRF). When
 * SKILLOPT_AUTH_TOKEN is set (required to bind beyond loopback), every request must carry it: an
 * `Authorization: Bearer` header, or the cookie set by opening any page once with `?token=…`.
 */
import { timingSafeEqual } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";

const COOKIE = "skillopt_token";

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function deny(status: number, message: string) {
  return NextResponse.json({ error: { code: status === 401 ? "UNAUTHORIZED" : "FORBIDDEN", message } }, { status });
}

export function proxy(req: NextRequest) {
  if (!["GET", "HEAD", "OPTIONS"].includes(req.method)) {
    const origin = req.headers.get("origin");
    if (origin && new URL(origin).host !== req.headers.get("host")) return deny(403, "cross-origin request refused");
  }
  const token = process.env.SKILLOPT_AUTH_TOKEN;
  if (!token) return NextResponse.next();
  const fromQuery = req.nextUrl.searchParams.get("token");
  if (fromQuery !== null && same(fromQuery, token)) {
    const clean = req.nextUrl.clone();
    clean.searchParams.delete("token");
    // A relative Location keeps the browser on the host it used (nextUrl may spell loopback differently).
    const res = new NextResponse(null, { status: 307, headers: { Location: `${clean.pathname}${clean.search}` } });
    res.cookies.set(COOKIE, token, { httpOnly: true, sameSite: "strict", path: "/" });
    return res;
  }
  const header = req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
  const cookie = req.cookies.get(COOKIE)?.value ?? "";
  if ((header && same(header, token)) || (cookie && same(cookie, token))) return NextResponse.next();
  return deny(401, "this SkillOpt server needs its access token: open the dashboard with ?token=<SKILLOPT_AUTH_TOKEN>");
}

export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"] };

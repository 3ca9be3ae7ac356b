/**
 * Request guard for every page and API route, run before any handler: the Host must be one this server
 * answers to (DNS rebinding), an Origin must be this server's own (CSRF), and with SKILLOPT_AUTH_TOKEN
 * every request carries the token (`Authorization: Bearer`, or the cookie set by opening a page with
 * `?token=…`). The decision itself lives in lib/http/host-guard.ts.
 */
import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/config/env";
import { allowedHosts, decideRequest, TOKEN_COOKIE, type GuardConfig } from "@/lib/http/host-guard";

let cached: { key: string; cfg: GuardConfig } | undefined;

/** Built once per environment (tests change process.env between cases). */
function guardConfig(): GuardConfig {
  const e = env();
  const key = `${e.SKILLOPT_HOST ?? ""}|${e.SKILLOPT_ALLOWED_HOSTS.join(",")}|${e.SKILLOPT_AUTH_TOKEN ?? ""}`;
  if (cached?.key !== key) {
    cached = {
      key,
      cfg: {
        allowed: allowedHosts({ bind: e.SKILLOPT_HOST, extra: e.SKILLOPT_ALLOWED_HOSTS }),
        token: e.SKILLOPT_AUTH_TOKEN,
      },
    };
  }
  return cached.cfg;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function denied(req: NextRequest, status: number, code: string, message: string): NextResponse {
  const wantsPage =
    !req.nextUrl.pathname.startsWith("/api/") && (req.headers.get("accept") ?? "").includes("text/html");
  if (!wantsPage) return NextResponse.json({ error: { code, message } }, { status });
  const html = `<!doctype html><meta charset="utf-8"><title>SkillOpt: ${status}</title><p>${escapeHtml(message)}</p>`;
  return new NextResponse(html, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

export function proxy(req: NextRequest) {
  const decision = decideRequest(
    {
      method: req.method,
      host: req.headers.get("host"),
      origin: req.headers.get("origin"),
      pathAndQuery: `${req.nextUrl.pathname}${req.nextUrl.search}`,
      scheme: req.headers.get("x-forwarded-proto") === "https" ? "https" : "http",
      bearer: req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? null,
      cookie: req.cookies.get(TOKEN_COOKIE)?.value ?? null,
    },
    guardConfig(),
  );
  if (decision.kind === "allow") return NextResponse.next();
  if (decision.kind === "deny") return denied(req, decision.status, decision.code, decision.message);
  const res = NextResponse.redirect(decision.location, 307);
  // Lax, not Strict: browsers withhold Strict cookies from a navigation another site started (a login link
  // in a wiki or chat), redirects included, so that login would land on a 401. Writes stay protected by
  // the Origin check, and the Host allow-list keeps other sites' names out.
  res.cookies.set(TOKEN_COOKIE, decision.token, {
    httpOnly: true,
    sameSite: "lax",
    secure: decision.secure,
    path: "/",
  });
  return res;
}

export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"] };

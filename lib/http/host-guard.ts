/**
 * The request guard's decision, kept pure so it can be tested as a table and so proxy.ts stays a shim:
 * which Host names this server answers to, whether an Origin is this server's own, and the access-token
 * check with its browser login (`?token=` → cookie → redirect). No process.env here; the caller passes
 * the configuration in.
 */

/** A parsed `Host`-style value: lower-cased name (IPv6 without brackets) and optional port. */
export interface HostName {
  name: string;
  port?: number;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1"];
/** Bind addresses that listen on every interface, loopback included. */
const WILDCARD_BINDS = new Set(["0.0.0.0", "::", "[::]"]);
// Underscores are not valid in DNS names but do occur in container and NetBIOS host names.
const NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const IPV6 = /^[0-9a-f:.]+$/;

/** Parses `name`, `name:port`, `[v6]` or `[v6]:port`; null when it is anything else. */
export function parseHost(raw: string): HostName | null {
  const text = raw.trim().toLowerCase();
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text) ?? /^([^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return null;
  const name = m[1]!;
  const bracketed = text.startsWith("[");
  if (bracketed ? !(IPV6.test(name) && name.includes(":")) : !NAME.test(name)) return null;
  if (m[2] === undefined) return { name };
  const port = Number(m[2]);
  return port >= 1 && port <= 65535 ? { name, port } : null;
}

/** A bind address as `--host` spells it (`::1`, `0.0.0.0`, `my-box.lan`). */
function bindName(bind: string): string {
  return bind
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
}

/**
 * The Host names this server answers to: loopback names when it listens on loopback (a loopback or
 * wildcard bind), the bound name itself when it is a name or address a browser can use, and the
 * operator's extra names (`SKILLOPT_ALLOWED_HOSTS`). An entry without a port matches any port, so an
 * SSH tunnel (`ssh -L 9000:127.0.0.1:7860`) keeps working; the name is what DNS rebinding cannot fake.
 */
export function allowedHosts(opts: { bind?: string; extra?: readonly string[] }): HostName[] {
  const bind = bindName(opts.bind ?? "127.0.0.1");
  const out: HostName[] = [];
  if (LOOPBACK_NAMES.includes(bind) || WILDCARD_BINDS.has(bind)) out.push(...LOOPBACK_NAMES.map((name) => ({ name })));
  if (!WILDCARD_BINDS.has(bind) && !LOOPBACK_NAMES.includes(bind)) {
    const own = parseHost(bind.includes(":") ? `[${bind}]` : bind);
    if (own) out.push(own);
  }
  for (const entry of opts.extra ?? []) {
    const parsed = parseHost(entry);
    if (!parsed) throw new Error(`'${entry}' is not a host name (expected name, name:port or [IPv6]:port)`);
    out.push(parsed);
  }
  return out;
}

function hostAllowed(host: HostName, allowed: readonly HostName[]): boolean {
  return allowed.some((a) => a.name === host.name && (a.port === undefined || a.port === host.port));
}

export interface GuardConfig {
  allowed: readonly HostName[];
  /** SKILLOPT_AUTH_TOKEN; when set every request must carry it. */
  token?: string;
}

export interface GuardRequest {
  method: string;
  /** The raw Host header (null when absent). */
  host: string | null;
  /** The raw Origin header (null when absent). */
  origin: string | null;
  /** Path and query as requested, e.g. `/runs/new?token=abc`. */
  pathAndQuery: string;
  /** The scheme the browser used: `https` behind a TLS proxy that says so, else `http`. */
  scheme: "http" | "https";
  bearer: string | null;
  cookie: string | null;
}

export type GuardDecision =
  | { kind: "allow" }
  | { kind: "deny"; status: 401 | 403; code: "UNAUTHORIZED" | "FORBIDDEN"; message: string }
  | { kind: "login"; location: string; token: string; secure: boolean };

export const TOKEN_COOKIE = "skillopt_token";
const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** Constant-time for equal lengths; the length itself is not a secret worth hiding here. */
function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const forbid = (message: string): GuardDecision => ({ kind: "deny", status: 403, code: "FORBIDDEN", message });
const unauthorized = (message: string): GuardDecision => ({ kind: "deny", status: 401, code: "UNAUTHORIZED", message });

/** An Origin this server sent: an http(s) URL with nothing but scheme, name and port, naming our Host. */
function originProblem(origin: string, host: string): string | null {
  if (origin === "null") return "requests from an opaque origin (Origin: null) are refused";
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return "malformed Origin header";
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.origin !== origin.replace(/\/$/, "").toLowerCase()
  ) {
    return "malformed Origin header";
  }
  return url.host === host.trim().toLowerCase() ? null : "cross-origin request refused";
}

/** Decides one request: allow it, refuse it, or turn a `?token=` visit into a cookie and a clean redirect. */
export function decideRequest(req: GuardRequest, cfg: GuardConfig): GuardDecision {
  const host = req.host === null ? null : parseHost(req.host);
  if (!host) return forbid("missing or malformed Host header");
  if (!hostAllowed(host, cfg.allowed)) {
    return forbid(
      `this server does not answer to the host '${req.host}'; add it to SKILLOPT_ALLOWED_HOSTS if you reach the dashboard by that name`,
    );
  }
  if (req.origin !== null) {
    const problem = originProblem(req.origin, req.host!);
    if (problem) return forbid(problem);
  }
  if (!cfg.token) return { kind: "allow" };
  const url = new URL(req.pathAndQuery, "http://host.invalid"); // only the path and query are read;
  const fromQuery = url.searchParams.get("token");
  if (fromQuery !== null && SAFE_METHODS.has(req.method)) {
    if (!sameSecret(fromQuery, cfg.token)) return unauthorized("the access token in the address is wrong");
    url.searchParams.delete("token");
    // Next's proxy needs an absolute Location; the Host it is built from has just passed the allow-list.
    const location = `${req.scheme}://${req.host!.trim().toLowerCase()}${url.pathname}${url.search}`;
    return { kind: "login", location, token: cfg.token, secure: req.scheme === "https" };
  }
  if ((req.bearer && sameSecret(req.bearer, cfg.token)) || (req.cookie && sameSecret(req.cookie, cfg.token)))
    return { kind: "allow" };
  return unauthorized(
    "this SkillOpt server needs its access token: open the dashboard with ?token=<SKILLOPT_AUTH_TOKEN>, or send Authorization: Bearer <token>",
  );
}

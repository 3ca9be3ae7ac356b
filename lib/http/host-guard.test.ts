import { describe, expect, it } from "vitest";
import { allowedHosts, decideRequest, parseHost, type GuardConfig, type GuardRequest } from "./host-guard";

const loopback: GuardConfig = { allowed: allowedHosts({}) };
const withToken: GuardConfig = { allowed: allowedHosts({}), token: "s3cret-token" };
const lan: GuardConfig = {
  allowed: allowedHosts({ bind: "0.0.0.0", extra: ["skillopt.lan", "10.0.0.5:7860"] }),
  token: "s3cret-token",
};

function request(over: Partial<GuardRequest>): GuardRequest {
  return {
    method: "GET",
    host: "127.0.0.1:7860",
    origin: null,
    pathAndQuery: "/api/runs",
    scheme: "http",
    bearer: null,
    cookie: null,
    ...over,
  };
}

describe("parseHost", () => {
  it.each([
    ["127.0.0.1:7860", { name: "127.0.0.1", port: 7860 }],
    ["LocalHost", { name: "localhost" }],
    ["[::1]:7860", { name: "::1", port: 7860 }],
    ["[::1]", { name: "::1" }],
    ["my_box.lan:80", { name: "my_box.lan", port: 80 }],
  ])("%s", (raw, parsed) => expect(parseHost(raw)).toEqual(parsed));

  it.each([
    "",
    "evil.example:",
    "a b",
    "http://x",
    "x/y",
    "::1",
    "[zz]:1",
    "host:0",
    "host:70000",
    "host:1:2",
    "-a.example",
    "a..b",
  ])("refuses %j", (raw) => expect(parseHost(raw)).toBeNull());
});

describe("allowedHosts", () => {
  it("loopback names for a loopback or wildcard bind; the bound name otherwise; extras always", () => {
    const names = (bind?: string, extra?: string[]) =>
      allowedHosts({ bind, extra }).map((h) => `${h.name}${h.port ? `:${h.port}` : ""}`);
    expect(names()).toEqual(["127.0.0.1", "localhost", "::1"]);
    expect(names("::1")).toEqual(["127.0.0.1", "localhost", "::1"]);
    expect(names("0.0.0.0", ["box.lan:8080"])).toEqual(["127.0.0.1", "localhost", "::1", "box.lan:8080"]);
    expect(names("192.168.1.5")).toEqual(["192.168.1.5"]);
    expect(names("fe80::1")).toEqual(["fe80::1"]);
    expect(() => allowedHosts({ extra: ["http://x"] })).toThrow(/'http:\/\/x' is not a host name/);
  });
});

describe("decideRequest", () => {
  it.each<[string, GuardConfig, Partial<GuardRequest>, string]>([
    // DNS rebinding: the browser sends the attacker's name; reads are the leak, so GET is refused too.
    [
      "rebinding GET",
      loopback,
      { host: "evil.example:7860" },
      "403 this server does not answer to the host 'evil.example:7860'",
    ],
    [
      "rebinding POST",
      loopback,
      { method: "POST", host: "evil.example:7860", origin: "http://evil.example:7860" },
      "403 this server does not answer",
    ],
    ["no Host", loopback, { host: null }, "403 missing or malformed Host"],
    ["malformed Host", loopback, { host: "a b" }, "403 missing or malformed Host"],
    ["loopback name with the port", loopback, { host: "127.0.0.1:7860" }, "allow"],
    ["loopback name without a port", loopback, { host: "localhost" }, "allow"],
    ["IPv6 loopback", loopback, { host: "[::1]:7860" }, "allow"],
    ["an SSH tunnel's port", loopback, { host: "localhost:9000" }, "allow"],
    [
      "a LAN name on a loopback-only server",
      loopback,
      { host: "skillopt.lan:7860" },
      "403 this server does not answer",
    ],
    ["same-origin write", loopback, { method: "POST", origin: "http://127.0.0.1:7860" }, "allow"],
    [
      "cross-origin write",
      loopback,
      { method: "POST", origin: "https://evil.example" },
      "403 cross-origin request refused",
    ],
    ["cross-origin read", loopback, { origin: "https://evil.example" }, "403 cross-origin request refused"],
    [
      "same name, other port",
      loopback,
      { method: "PATCH", origin: "http://127.0.0.1:3000" },
      "403 cross-origin request refused",
    ],
    [
      "Origin: null",
      loopback,
      { method: "POST", origin: "null" },
      "403 requests from an opaque origin (Origin: null) are refused",
    ],
    ["Origin: null on a read", loopback, { origin: "null" }, "403 requests from an opaque origin"],
    ["malformed Origin", loopback, { method: "POST", origin: "::::" }, "403 malformed Origin header"],
    [
      "Origin with a path",
      loopback,
      { method: "POST", origin: "http://127.0.0.1:7860/x" },
      "403 malformed Origin header",
    ],
    ["non-http Origin", loopback, { method: "POST", origin: "file://" }, "403 malformed Origin header"],
    ["token mode, nothing sent", withToken, {}, "401 this SkillOpt server needs its access token"],
    ["token mode, wrong bearer", withToken, { bearer: "wrong" }, "401 this SkillOpt server needs its access token"],
    ["token mode, bearer", withToken, { bearer: "s3cret-token" }, "allow"],
    ["token mode, cookie", withToken, { cookie: "s3cret-token" }, "allow"],
    [
      "token mode, wrong ?token=",
      withToken,
      { pathAndQuery: "/?token=nope" },
      "401 the access token in the address is wrong",
    ],
    [
      "?token= does not log in a write",
      withToken,
      { method: "POST", origin: "http://127.0.0.1:7860", pathAndQuery: "/api/runs?token=s3cret-token" },
      "401 this SkillOpt server needs",
    ],
    [
      "token mode still checks the Host first",
      withToken,
      { host: "evil.example", bearer: "s3cret-token" },
      "403 this server does not answer",
    ],
    ["allow-listed LAN name", lan, { host: "skillopt.lan:7860", cookie: "s3cret-token" }, "allow"],
    ["allow-listed address on its port", lan, { host: "10.0.0.5:7860", cookie: "s3cret-token" }, "allow"],
    [
      "allow-listed address on another port",
      lan,
      { host: "10.0.0.5:8000", cookie: "s3cret-token" },
      "403 this server does not answer",
    ],
    ["wildcard bind still answers loopback", lan, { host: "127.0.0.1:7860", cookie: "s3cret-token" }, "allow"],
  ])("%s", (_name, cfg, over, expected) => {
    const d = decideRequest(request(over), cfg);
    const got = d.kind === "deny" ? `${d.status} ${d.message}` : d.kind;
    expect(got.startsWith(expected)).toBe(true);
    if (d.kind === "deny") expect(d.code).toBe(d.status === 401 ? "UNAUTHORIZED" : "FORBIDDEN");
  });

  it("a right ?token= becomes a cookie and an absolute redirect to the same place without the token", () => {
    const d = decideRequest(
      request({ host: "LOCALHOST:7860", pathAndQuery: "/runs/new?preset=a&token=s3cret-token&b=2" }),
      withToken,
    );
    expect(d).toEqual({
      kind: "login",
      location: "http://localhost:7860/runs/new?preset=a&b=2",
      token: "s3cret-token",
      secure: false,
    });
    const tls = decideRequest(
      request({ host: "skillopt.lan", pathAndQuery: "/?token=s3cret-token", scheme: "https" }),
      lan,
    );
    expect(tls).toEqual({ kind: "login", location: "https://skillopt.lan/", token: "s3cret-token", secure: true });
  });

  it("the login redirect always stays on the request's own Host, whatever the path looks like", () => {
    for (const path of [
      "//evil.example/?token=s3cret-token",
      "/\\evil.example/?token=s3cret-token",
      "/.//evil.example?token=s3cret-token",
    ]) {
      const d = decideRequest(request({ pathAndQuery: path }), withToken);
      expect(d.kind).toBe("login");
      if (d.kind === "login") expect(d.location.startsWith("http://127.0.0.1:7860/")).toBe(true);
    }
  });

  it("without a token configured, ?token= is just a query parameter", () => {
    expect(decideRequest(request({ pathAndQuery: "/?token=x" }), loopback)).toEqual({ kind: "allow" });
  });
});

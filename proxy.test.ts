import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "./lib/config/env";
import { proxy } from "./proxy";

const req = (url: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest(new URL(url), { method: init.method ?? "GET", headers: { host: "127.0.0.1:7860", ...init.headers } });

function setEnv(vars: Record<string, string>) {
  Object.assign(process.env, vars);
  resetEnvCache();
}

afterEach(() => {
  delete process.env.SKILLOPT_AUTH_TOKEN;
  delete process.env.SKILLOPT_ALLOWED_HOSTS;
  delete process.env.SKILLOPT_HOST;
  resetEnvCache();
});

describe("proxy", () => {
  it("on loopback without a token: loopback Hosts pass, other Hosts and cross-origin writes get 403 JSON", async () => {
    expect(proxy(req("http://127.0.0.1:7860/api/runs")).status).toBe(200);
    expect(
      proxy(req("http://127.0.0.1:7860/api/runs", { method: "POST", headers: { origin: "http://127.0.0.1:7860" } }))
        .status,
    ).toBe(200);
    expect(
      proxy(req("http://127.0.0.1:7860/api/runs", { method: "POST", headers: { origin: "https://evil.example" } }))
        .status,
    ).toBe(403);
    const rebound = proxy(req("http://evil.example:7860/api/runs", { headers: { host: "evil.example:7860" } }));
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toEqual({
      error: { code: "FORBIDDEN", message: expect.stringContaining("'evil.example:7860'") },
    });
    expect(proxy(req("http://127.0.0.1:7860/api/runs", { method: "POST", headers: { origin: "null" } })).status).toBe(
      403,
    );
  });

  it("a refused page visit gets a small HTML page, an API call JSON", async () => {
    const page = proxy(req("http://evil.example/", { headers: { host: "evil.example", accept: "text/html,*/*" } }));
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toContain("does not answer to the host &#39;evil.example&#39;");
  });

  it("SKILLOPT_ALLOWED_HOSTS and the bound --host extend the allow-list", () => {
    setEnv({ SKILLOPT_HOST: "0.0.0.0", SKILLOPT_ALLOWED_HOSTS: "skillopt.lan", SKILLOPT_AUTH_TOKEN: "t0ken" });
    const auth = { authorization: "Bearer t0ken" };
    expect(proxy(req("http://skillopt.lan/api/runs", { headers: { host: "skillopt.lan", ...auth } })).status).toBe(200);
    expect(proxy(req("http://other.lan/api/runs", { headers: { host: "other.lan", ...auth } })).status).toBe(403);
    setEnv({ SKILLOPT_HOST: "192.168.1.5", SKILLOPT_ALLOWED_HOSTS: "" });
    expect(
      proxy(req("http://192.168.1.5:7860/api/runs", { headers: { host: "192.168.1.5:7860", ...auth } })).status,
    ).toBe(200);
  });

  it("with SKILLOPT_AUTH_TOKEN, requires the bearer header or the cookie set from ?token=", () => {
    setEnv({ SKILLOPT_AUTH_TOKEN: "s3cret-token" });
    expect(proxy(req("http://127.0.0.1:7860/api/runs")).status).toBe(401);
    expect(proxy(req("http://127.0.0.1:7860/api/runs", { headers: { authorization: "Bearer wrong" } })).status).toBe(
      401,
    );
    expect(
      proxy(req("http://127.0.0.1:7860/api/runs", { headers: { authorization: "Bearer s3cret-token" } })).status,
    ).toBe(200);
    const login = proxy(req("http://127.0.0.1:7860/runs/new?token=s3cret-token"));
    expect(login.status).toBe(307);
    expect(login.headers.get("location")).toBe("http://127.0.0.1:7860/runs/new");
    expect(login.headers.get("set-cookie")).toMatch(/skillopt_token=s3cret-token; Path=\/; HttpOnly; SameSite=lax/i);
    expect(proxy(req("http://127.0.0.1:7860/?token=wrong")).status).toBe(401);
    expect(proxy(req("http://127.0.0.1:7860/", { headers: { cookie: "skillopt_token=s3cret-token" } })).status).toBe(
      200,
    );
  });
});

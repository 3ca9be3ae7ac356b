import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "./proxy";

const req = (url: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest(new URL(url), { method: init.method ?? "GET", headers: { host: "127.0.0.1:7860", ...init.headers } });

afterEach(() => {
  delete process.env.SKILLOPT_AUTH_TOKEN;
});

describe("proxy", () => {
  it("lets everything through on loopback without a token, but refuses cross-origin writes", () => {
    expect(proxy(req("http://127.0.0.1:7860/api/runs")).status).toBe(200);
    expect(proxy(req("http://127.0.0.1:7860/api/runs", { method: "POST", headers: { origin: "http://127.0.0.1:7860" } })).status).toBe(200);
    expect(proxy(req("http://127.0.0.1:7860/api/runs", { method: "POST", headers: { origin: "https://evil.example" } })).status).toBe(403);
  });

  it("with SKILLOPT_AUTH_TOKEN, requires the bearer header or the cookie set from ?token=", () => {
    process.env.SKILLOPT_AUTH_TOKEN = "s3cret-token";
    expect(proxy(req("http://127.0.0.1:7860/api/runs")).status).toBe(401);
    expect(proxy(req("http://127.0.0.1:7860/api/runs", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect(proxy(req("http://127.0.0.1:7860/api/runs", { headers: { authorization: "Bearer s3cret-token" } })).status).toBe(200);
    const login = proxy(req("http://127.0.0.1:7860/runs/new?token=s3cret-token"));
    expect(login.status).toBe(307);
    expect(login.headers.get("location")).toBe("/runs/new");
    expect(login.headers.get("set-cookie")).toMatch(/skillopt_token=s3cret-token; Path=\/; HttpOnly; SameSite=strict/i);
    expect(proxy(req("http://127.0.0.1:7860/", { headers: { cookie: "skillopt_token=s3cret-token" } })).status).toBe(200);
  });
});

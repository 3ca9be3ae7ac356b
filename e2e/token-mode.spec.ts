/**
 * Token mode from a browser: a second dashboard started by `npm start`'s script with SKILLOPT_AUTH_TOKEN
 * (reusing the build the main web server made), logged into by opening `/?token=…` in Chromium.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { expect, test } from "@playwright/test";
import { rawRequest } from "./raw-http";

const TOKEN = `e2e-${Math.random().toString(36).slice(2)}-token`;
let server: ChildProcess;
let port: number;
let log = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port: p } = s.address() as { port: number };
      s.close(() => resolve(p));
    });
  });
}

async function waitUntilServing(deadline: number): Promise<void> {
  for (;;) {
    const res = await rawRequest({ port, path: "/api/backends", headers: { authorization: `Bearer ${TOKEN}` } }).catch(
      () => null,
    );
    if (res?.status === 200) return;
    if (server.exitCode !== null) throw new Error(`token-mode dashboard exited (${server.exitCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`token-mode dashboard did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  port = await freePort();
  server = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--no-worker", "--port", String(port)], {
    env: { ...process.env, SKILLOPT_AUTH_TOKEN: TOKEN },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  await waitUntilServing(Date.now() + 150_000);
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await exited;
});

test("[AUTH]: opening /?token=… in a browser sets the cookie, lands on the runs page, and the API then answers", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  const response = await page.goto(`/?token=${TOKEN}`);
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).search).toBe("");
  await expect(page.getByRole("heading", { name: "Runs" })).toBeVisible();
  await expect(page.getByText("Could not load runs")).toHaveCount(0);
  const [cookie] = await context.cookies();
  expect(cookie).toMatchObject({ name: "skillopt_token", value: TOKEN, httpOnly: true, sameSite: "Lax" });

  expect((await page.request.get("/api/runs")).status()).toBe(200);
  const anonymous = await rawRequest({ port, path: "/api/runs" });
  expect(anonymous.status).toBe(401);
  expect(JSON.parse(anonymous.body)).toMatchObject({ error: { code: "UNAUTHORIZED" } });
  await context.close();
});

test("[AUTH]: a wrong token in the address is a 401 page, and no cookie is set", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  const response = await page.goto("/runs/new?token=wrong");
  expect(response?.status()).toBe(401);
  await expect(page.getByText("the access token in the address is wrong")).toBeVisible();
  expect(await context.cookies()).toEqual([]);
  await context.close();
});

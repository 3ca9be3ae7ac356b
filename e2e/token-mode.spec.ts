/**
 * Token mode from a browser: a second dashboard started by `npm start`'s script with SKILLOPT_AUTH_TOKEN
 * (reusing the build the main web server made), logged into by opening `/?token=…` in Chromium.
 */
import { expect, test } from "@playwright/test";
import { rawRequest } from "./raw-http";
import { startSecondDashboard, type SecondDashboard } from "./second-dashboard";

const TOKEN = `e2e-${Math.random().toString(36).slice(2)}-token`;
let server: SecondDashboard;
let port: number;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startSecondDashboard({ SKILLOPT_AUTH_TOKEN: TOKEN }, async (p) => {
    const res = await rawRequest({
      port: p,
      path: "/api/backends",
      headers: { authorization: `Bearer ${TOKEN}` },
    }).catch(() => null);
    return res?.status === 200;
  });
  port = server.port;
});

test.afterAll(async () => {
  await server?.stop();
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

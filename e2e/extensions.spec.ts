/**
 * SKILLOPT_EXTENSIONS across processes, as a user runs it: a second dashboard started by `npm start`'s script
 * (reusing the main web server's build) and a worker, both given the README's example extension file. The
 * dashboard lists its backend and accepts its benchmark; the worker trains a run that names them; the main
 * dashboard, started without the file, refuses the same requests by field.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { shot, startWorker, waitForStatus, type WorkerProc } from "./helpers";
import { startSecondDashboard, type SecondDashboard } from "./second-dashboard";

const EXTENSIONS = { SKILLOPT_EXTENSIONS: "tests/fixtures/extending/skillopt-extensions.ts" };
const ECHO_TARGET = { "model.target_backend": "echo", "model.target": "echo-1", "train.num_epochs": 1 };
let server: SecondDashboard;
let worker: WorkerProc | undefined;
let base = "";

const backendNames = async (request: APIRequestContext, url: string) =>
  ((await (await request.get(url)).json()) as { backends: Array<{ name: string }> }).backends.map((b) => b.name);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startSecondDashboard(EXTENSIONS);
  base = server.base;
});

test.afterAll(async () => {
  await worker?.kill();
  await server?.stop();
});

test("[EXTENDING]: a dashboard and a worker given SKILLOPT_EXTENSIONS list, accept and train with its backend and benchmark", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  expect(server.log()).toContain(
    "extensions: echo (backend), tally (benchmark) from tests/fixtures/extending/skillopt-extensions.ts",
  );
  // The catalog the form reads: echo is listed here, and not by the dashboard started without the file.
  expect(await backendNames(request, `${base}/api/backends`)).toContain("echo");
  expect(await backendNames(request, "/api/backends")).not.toContain("echo");

  // The New run form offers echo for the target only (it is a target-only backend).
  await page.goto(`${base}/runs/new`);
  const target = page.getByLabel("target backend");
  await expect(target.locator('option[value="echo"]')).toHaveCount(1);
  await expect(page.getByLabel("optimizer backend").locator('option[value="echo"]')).toHaveCount(0);
  await target.selectOption("echo");
  await shot(page, "extensions-new-run");

  // The registered benchmark is accepted by this dashboard's estimate, refused by the other by field.
  const estimate = (url: string) =>
    request.post(url, { data: { preset: "searchqa/sample.yaml", overrides: { "env.name": "tally" } } });
  expect((await estimate(`${base}/api/runs/estimate`)).status()).toBe(200);
  const refused = await estimate("/api/runs/estimate");
  expect(refused.status()).toBe(422);
  expect(await refused.text()).toContain("unknown benchmark 'tally'");

  // A run naming the backend: refused by the dashboard without the file, trained by a worker with it.
  const create = (url: string) =>
    request.post(url, { data: { preset: "searchqa/sample.yaml", overrides: ECHO_TARGET, name: "e2e echo target" } });
  const without = await create("/api/runs");
  expect(without.status()).toBe(422);
  expect(await without.text()).toContain("model.target_backend");
  const res = await create(`${base}/api/runs`);
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  worker = startWorker("e2e-extensions", EXTENSIONS);
  await worker.ready;
  expect(worker.log()).toContain("extensions: echo (backend), tally (benchmark)");
  await waitForStatus(request, id, "succeeded", 150_000);
  const run = (await (await request.get(`/api/runs/${id}`)).json()) as {
    backendUsage: Array<{ role: string; backend: string; calls: number }>;
  };
  const echo = run.backendUsage.filter((u) => u.role === "target" && u.backend === "echo");
  expect(echo.length).toBeGreaterThan(0);
  expect(echo.reduce((n, u) => n + u.calls, 0)).toBeGreaterThan(0);
  await page.goto(`${base}/runs/${id}`);
  await expect(page.getByText("echo-1").first()).toBeVisible();
  await shot(page, "extensions-run");
});

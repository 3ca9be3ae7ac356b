import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { SleepNightDetail } from "../lib/contracts/sleep";
import { makeTasksPayload, writeTasksFile } from "../lib/sleep";
import { PERSONAS } from "../lib/sleep/experiment/personas";
import { shot, startWorker, type WorkerProc } from "./helpers";

// The dashboard may only name folders under this root (playwright.config.ts gives it SKILLOPT_SLEEP_ROOTS).
const ROOT = resolve("test-results/sleep-e2e");
let worker: WorkerProc;

/**
 * A project folder beside a copy of our Claude Code transcript fixtures (the agent home), and a reviewed
 * tasks file of the researcher persona: the mock backend improves exactly the tasks that name its rules.
 */
function fixture() {
  mkdirSync(ROOT, { recursive: true });
  const dir = mkdtempSync(join(ROOT, "p-"));
  const project = join(dir, "project");
  mkdirSync(project);
  const claude = join(dir, "claude");
  cpSync(resolve("lib/sleep/harvest/fixtures/claude"), claude, { recursive: true });
  const tasksFile = writeTasksFile(join(dir, "tasks.json"), {
    ...makeTasksPayload(PERSONAS.researcher(), {
      project,
      transcriptSource: "claude",
      nSessions: 0,
      targetSkillPath: "",
    }),
    reviewed: true,
  });
  return { name: `e2e ${dir.slice(-6)}`, project, claude, tasksFile };
}

async function nightJson(request: APIRequestContext, page: Page): Promise<SleepNightDetail> {
  const id = page.url().split("/").pop()!;
  return (await (await request.get(`/api/sleep/nights/${id}`)).json()) as SleepNightDetail;
}

test.beforeAll(async () => {
  worker = startWorker("e2e-sleep");
  await worker.ready;
});
test.afterAll(async () => {
  await worker.kill();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(`worker log:\n${worker.log()}`);
});

test("[SLEEP]: a project made in the form runs a night from the dashboard; its diff and gate table show, and adopt writes the live skill exactly as staged", async ({
  page,
  request,
}) => {
  const f = fixture();
  await page.goto("/sleep");
  await page.getByRole("link", { name: "Sleep" }).first().click();
  await page.getByRole("button", { name: "New project" }).click();
  const form = page.getByTestId("sleep-project-form");
  await form.getByLabel("Name").fill(f.name);
  await form.getByLabel("Project folder").fill("/etc");
  await form.getByLabel("Transcript home").fill(f.claude);
  await form.getByLabel("Reviewed tasks file").fill(f.tasksFile);
  await form.getByLabel("Schedule (cron)").fill("0 3 * * *");
  await form.getByRole("button", { name: "Create project" }).click();
  await expect(form.getByRole("alert")).toContainText("outside the folders Sleep projects may use");
  await form.getByLabel("Project folder").fill(f.project);
  await form.getByRole("button", { name: "Create project" }).click();
  const row = page.getByTestId("sleep-project").filter({ hasText: f.name });
  await expect(row).toContainText("Schedule 0 3 * * * — off");
  await shot(page, "sleep-projects");

  await row.getByRole("button", { name: "Run now" }).click();
  await expect(page).toHaveURL(/\/sleep\/nights\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("night-status")).toHaveText("staged", { timeout: 60_000 });
  await expect(page.getByTestId("night-gate")).toHaveText("accept_new_best");
  const diff = page.getByTestId("proposal-skill").getByTestId("step-diff");
  await expect(diff).toBeVisible();
  await expect(diff.getByTestId("diff-right")).toContainText("Always wrap the final answer");
  await expect(page.getByTestId("gate-table")).toContainText("improved");
  await shot(page, "sleep-night");

  const before = await nightJson(request, page);
  const skill = before.proposals.find((p) => p.label === "skill")!;
  await expect(page.getByTestId("proposal-skill").getByTestId("proposal-live-path")).toContainText(
    `Adopt writes ${skill.livePath} (empty or not there yet`,
  );
  await page.getByRole("button", { name: "Adopt" }).click();
  await expect(page.getByTestId("adopted")).toContainText(skill.livePath);
  await expect(page.getByTestId("night-status")).toHaveText("adopted");
  expect(readFileSync(skill.livePath, "utf8")).toBe(skill.proposedText);
  await page.goto("/sleep");
  await expect(page.getByTestId("sleep-nights")).toContainText(f.name);
});

test("[SLEEP]: adopt refuses a night whose live skill was edited after the night started, and the edit stays", async ({
  page,
  request,
}) => {
  const f = fixture();
  const res = await request.post("/api/sleep/projects", {
    data: { name: f.name, directory: f.project, transcriptHome: f.claude, tasksFile: f.tasksFile },
  });
  expect(res.status()).toBe(201);
  await page.goto("/sleep");
  await page.getByTestId("sleep-project").filter({ hasText: f.name }).getByRole("button", { name: "Run now" }).click();
  await expect(page).toHaveURL(/\/sleep\/nights\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("night-status")).toHaveText("staged", { timeout: 60_000 });
  const skill = (await nightJson(request, page)).proposals.find((p) => p.label === "skill")!;
  mkdirSync(join(skill.livePath, ".."), { recursive: true });
  writeFileSync(skill.livePath, "edited by hand while the night was staged\n");
  await page.reload();
  await expect(page.getByTestId("live-changed")).toBeVisible();
  await page.getByRole("button", { name: "Adopt" }).click();
  await expect(page.getByTestId("action-error")).toContainText("changed since");
  await expect(page.getByTestId("night-status")).toHaveText("staged");
  expect(readFileSync(skill.livePath, "utf8")).toBe("edited by hand while the night was staged\n");
  await shot(page, "sleep-adopt-refused");
});

test("[SLEEP]: discarding a staged night removes its staging folder and leaves the live skill alone; deleting the project removes it and its nights", async ({
  page,
  request,
}) => {
  const f = fixture();
  const res = await request.post("/api/sleep/projects", {
    data: {
      name: f.name,
      directory: f.project,
      transcriptHome: f.claude,
      tasksFile: f.tasksFile,
      cronPattern: "0 4 * * *",
      enabled: true,
    },
  });
  expect(res.status()).toBe(201);
  await page.goto("/sleep");
  const row = page.getByTestId("sleep-project").filter({ hasText: f.name });
  await row.getByRole("button", { name: "Run now" }).click();
  await expect(page).toHaveURL(/\/sleep\/nights\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("night-status")).toHaveText("staged", { timeout: 60_000 });
  const night = await nightJson(request, page);
  const skill = night.proposals.find((p) => p.label === "skill")!;
  expect(existsSync(night.stagingDir)).toBe(true);

  await page.getByRole("button", { name: "Discard" }).click();
  const dialog = page.getByTestId("discard-dialog");
  await expect(dialog).toContainText(night.stagingDir);
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(page.getByTestId("night-status")).toHaveText("staged");
  await page.getByRole("button", { name: "Discard" }).click();
  await page.getByTestId("confirm-discard").click();
  await expect(page.getByTestId("night-status")).toHaveText("discarded");
  await expect(page.getByTestId("discarded")).toContainText(night.stagingDir);
  await expect(page.getByRole("button", { name: "Adopt" })).toHaveCount(0);
  expect(existsSync(night.stagingDir)).toBe(false);
  expect(existsSync(skill.livePath)).toBe(false); // the night never wrote the live skill
  await shot(page, "sleep-discarded");

  await page.goto("/sleep");
  await expect(page.getByTestId("sleep-nights")).toContainText(f.name);
  await row.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByTestId("delete-project-dialog");
  await expect(confirm).toContainText("no more nightly runs");
  await shot(page, "sleep-delete-project");
  await page.getByTestId("confirm-delete-project").click();
  await expect(row).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: f.name })).toHaveCount(0);
  expect((await request.get(`/api/sleep/nights/${night.id}`)).status()).toBe(404);
  expect(existsSync(f.project)).toBe(true);
  expect(existsSync(join(f.claude, "projects"))).toBe(true);
});

test("[SLEEP]: a CLI handoff night that stops for answers shows as waiting, with its prompts file and what to do; it can be discarded from the dashboard", async ({
  page,
  request,
}) => {
  const f = fixture();
  const r = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/cli.ts",
      "sleep",
      "run",
      "--backend",
      "handoff",
      "--project",
      f.project,
      "--claude-home",
      f.claude,
      "--scope",
      "all",
      "--lookback-hours",
      "0",
      "--json",
    ],
    { encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" }, timeout: 90_000 },
  );
  expect(r.status, r.stderr).toBe(3);
  const out = JSON.parse(r.stdout) as { handoff_pending: number; prompts: string; answers_dir: string };
  expect(out.handoff_pending).toBeGreaterThan(0);

  await page.goto("/sleep");
  const row = page.getByRole("row").filter({ hasText: f.project });
  await expect(row).toContainText("handoff pending");
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/sleep\/nights\/[0-9a-f-]{36}$/);
  const notice = page.getByTestId("handoff-waiting");
  await expect(notice).toContainText("Waiting for handoff answers");
  await expect(notice).toContainText(out.prompts);
  await expect(notice).toContainText(`${out.answers_dir}/<id>.md`);
  await expect(notice).toContainText(`--project ${f.project} --backend handoff`);
  await expect(page.getByText("The night failed")).toHaveCount(0);
  await shot(page, "sleep-handoff-waiting");

  // Discard the waiting night, asked first like every delete; the prompts it waited on stay on disk.
  await page.getByRole("button", { name: "Discard" }).click();
  const dialog = page.getByTestId("discard-dialog");
  await expect(dialog).toContainText("The prompts it is waiting on stay where they are");
  await shot(page, "sleep-handoff-discard-dialog");
  await page.getByTestId("confirm-discard").click();
  await expect(page.getByTestId("night-status")).toHaveText("discarded");
  await expect(page.getByTestId("discarded")).toBeVisible();
  await expect(page.getByTestId("handoff-waiting")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Discard" })).toHaveCount(0);
  const night = await nightJson(request, page);
  expect(night.status).toBe("discarded");
  expect(existsSync(out.prompts)).toBe(true);
  await shot(page, "sleep-handoff-discarded");
});

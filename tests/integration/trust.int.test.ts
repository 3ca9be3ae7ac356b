/**
 * Issue 15, findings 1, 3 and 4, through the route handlers with real Requests: a request may not make the
 * server read files outside the allowed roots, run a program, send keys to an endpoint it chose, or write
 * anywhere; refusals are 422s naming the field that write no row and no file. The worker checks a run's
 * files again when it starts.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as datasetRoute from "../../app/api/runs/[runId]/dataset/route";
import * as estimateRoute from "../../app/api/runs/estimate/route";
import * as runsRoute from "../../app/api/runs/route";
import * as uploadsRoute from "../../app/api/uploads/route";
import type { Db } from "../../lib/db/client";
import { findRun } from "../../lib/db/runs";
import { QUEUES, redisOptions } from "../../lib/queue";
import { closeQueue, getRunQueue } from "../../lib/queue/producer";
import { optimizeRunProcessor } from "../../worker/processors/optimize-run";
import { freshDb, useAsDefaultDb } from "../helpers/db";

const base = "http://127.0.0.1:7860";
const cwd = process.cwd();
const post = (path: string, body: unknown) =>
  new Request(`${base}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
const SIM = { "model.backend": "sim", "model.optimizer": "sim-optimizer", "model.target": "sim-target" };

const outside = mkdtempSync(join(tmpdir(), "trust-int-"));
const uploadsDir = join(cwd, ".skillopt", "uploads");
const splitsDir = join(cwd, ".skillopt", "splits");
const cleanup: string[] = [outside];
let db: Db;
let worker: Worker | null = null;

/** What a refusal might have written: the project's .skillopt tree and any generated-split folder. */
function writtenState(): string[] {
  const walk = (dir: string, rel = ""): string[] =>
    !existsSync(dir)
      ? []
      : readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name), `${rel}${e.name}/`) : [`${rel}${e.name}`],
        );
  return [
    ...walk(join(cwd, ".skillopt")),
    ...(existsSync(join(cwd, "_generated_splits")) ? ["_generated_splits"] : []),
  ].sort();
}

function startWorker(): void {
  worker = new Worker(
    QUEUES.optimizeRun,
    optimizeRunProcessor({
      workerId: "trust",
      rootDir: cwd,
      shutdown: new AbortController().signal,
      staleAfterMs: 60_000,
      log: { info: () => {}, warn: () => {} },
      publish: () => {},
    }),
    { connection: redisOptions() },
  );
}

async function finalStatus(id: string): Promise<string | undefined> {
  for (let i = 0; i < 600; i++) {
    const s = (await findRun(id))?.status;
    if (s === "succeeded" || s === "failed") return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await findRun(id))?.status;
}

async function upload(name: string, text: string): Promise<string> {
  const form = new FormData();
  form.set("file", new File([text], name));
  const res = await uploadsRoute.POST(new Request(`${base}/api/uploads`, { method: "POST", body: form }));
  expect(res.status).toBe(201);
  const { path } = (await res.json()) as { path: string };
  cleanup.push(join(cwd, path));
  return path;
}

const example = Array.from({ length: 12 }, (_, i) =>
  JSON.stringify({ uid: `u${i}`, prompt: `What is ${i}?`, gold: String(i), passage: `${i} is ${i}.` }),
).join("\n");

beforeAll(async () => {
  db = (await freshDb("sqlite")).db;
  useAsDefaultDb(db);
  await getRunQueue().obliterate({ force: true });
  writeFileSync(join(outside, "keys.json"), JSON.stringify({ OPENAI_API_KEY: "sk-leak-0123456789" }));
  writeFileSync(join(outside, "data.jsonl"), example);
  mkdirSync(uploadsDir, { recursive: true });
});
afterAll(async () => {
  await worker?.close();
  await closeQueue();
  await db.$disconnect();
  for (const p of cleanup) rmSync(p, { recursive: true, force: true });
});

/** A create and an estimate with the same body are both refused with 422 naming `field`; nothing is written. */
async function expectRefused(body: Record<string, unknown>, field: string, message?: RegExp): Promise<void> {
  const rows = await db.run.count();
  const state = writtenState();
  for (const route of [runsRoute.POST, estimateRoute.POST]) {
    const res = await route(post("/api/runs", body));
    const text = await res.text();
    expect(res.status, text).toBe(422);
    const { error } = JSON.parse(text) as { error: { field?: string; message: string } };
    expect(error.field).toBe(field);
    if (message) expect(error.message).toMatch(message);
    expect(text).not.toMatch(/sk-leak|root:x:|PATH=/);
  }
  expect(await db.run.count()).toBe(rows);
  expect(writtenState()).toEqual(state);
}

describe("finding 1: files outside the allowed roots are never read", () => {
  it.each(["/proc/self/environ", "/etc/passwd", "../../../../etc/passwd"])("env.skill_init=%s", async (path) => {
    await expectRefused(
      { preset: "searchqa/sample.yaml", overrides: { "env.skill_init": path } },
      "env.skill_init",
      /is outside the folders the dashboard may read \(configs\/, data\//,
    );
  });

  it("a JSON data file outside the roots: refused before it is opened, its keys never in the message", async () => {
    await expectRefused(
      { preset: "custom/sample.yaml", overrides: { "env.data_path": join(outside, "keys.json") } },
      "env.data_path",
    );
    await expectRefused(
      { preset: "custom/sample.yaml", overrides: { "env.split_mode": "split_dir", "env.split_dir": outside } },
      "env.split_dir",
    );
  });

  it("a symlink inside an allowed root (the uploads) that leads outside", async () => {
    const link = join(uploadsDir, `link-${randomUUID()}.jsonl`);
    symlinkSync(join(outside, "data.jsonl"), link);
    cleanup.push(link);
    await expectRefused({ preset: "custom/sample.yaml", overrides: { "env.data_path": link } }, "env.data_path");
  });

  it.each(["../../etc/passwd.yaml", "searchqa/../../../etc/x.yaml", "/etc/x.yaml"])(
    "preset %s stays inside configs/",
    async (preset) => {
      await expectRefused({ preset }, "preset");
    },
  );
});

describe("finding 3: programs, endpoints, variables and output folders come only from the server", () => {
  it.each([
    [{ "model.target_backend": "codex-exec", "model.codex_exec_path": "/bin/sh" }, "model.codex_exec_path"],
    [{ "model.target_backend": "codex-exec", "model.codex_bin": "/bin/sh" }, "model.codex_exec_path"],
    [
      { "model.target_backend": "claude-code-exec", "model.claude_code_exec_path": "/bin/sh" },
      "model.claude_code_exec_path",
    ],
    [{ "model.backend": "openai", "model.openai_base_url": "http://evil.example/v1" }, "model.openai_base_url"],
    [
      { "model.optimizer_backend": "anthropic", "model.optimizer_anthropic_base_url": "http://evil.example" },
      "model.optimizer_anthropic_base_url",
    ],
    [
      { "model.backend": "azure", "model.target_azure_openai_endpoint": "http://evil.example" },
      "model.target_azure_openai_endpoint",
    ],
    [
      { "model.backend": "openai-compatible", "model.compatible_base_url": "http://evil.example/v1" },
      "model.compatible_base_url",
    ],
    [{ "model.backend": "openai-compatible", "model.compatible_preset": "vllm" }, "model.compatible_preset"],
    [{ "model.cache": true, "model.cache_dir": "/tmp/elsewhere" }, "model.cache_dir"],
    [{ "env.out_root": "/tmp/elsewhere" }, "env.out_root"],
  ])("%j → 422 naming %s", async (overrides, field) => {
    await expectRefused(
      { preset: "searchqa/sample.yaml", overrides },
      field,
      /cannot be chosen from the dashboard; set it in the server's environment or a config file under configs\//,
    );
  });

  it("OfficeQA's search endpoint and the variable whose value it receives", async () => {
    const search = { "env.split_mode": "split_dir", "env.search_mode": "custom_search" };
    await expectRefused(
      { preset: "officeqa/sample.yaml", overrides: { ...search, "env.search_api_url": "http://evil.example/q" } },
      "env.search_api_url",
    );
    await expectRefused(
      { preset: "officeqa/sample.yaml", overrides: { ...search, "env.search_auth_env": "OPENAI_API_KEY" } },
      "env.search_auth_env",
    );
  });

  it("sizes no real run needs are refused with the bound in the message", async () => {
    await expectRefused(
      { preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": 1e9 } },
      "train.num_epochs",
      /at most 1000/,
    );
  });
});

describe("finding 4: reads and refusals write nothing", () => {
  it("split_output_dir from a request is refused on the estimate and on create, and no folder appears", async () => {
    const target = join(outside, "created-by-request");
    await expectRefused(
      { preset: "custom/sample.yaml", overrides: { "env.split_output_dir": target } },
      "env.split_output_dir",
    );
    expect(existsSync(target)).toBe(false);
  });

  it("a ratio-split run refused for another reason writes no split files and no row", async () => {
    const data = await upload("ten.jsonl", example);
    await expectRefused(
      { preset: "custom/sample.yaml", overrides: { "env.data_path": data, "train.train_size": 7 } },
      "train.train_size",
    );
  });

  it("the estimate of an uploaded file answers and writes nothing", async () => {
    const data = await upload("est.jsonl", example);
    const state = writtenState();
    const res = await estimateRoute.POST(
      post("/api/runs/estimate", { preset: "custom/sample.yaml", overrides: { ...SIM, "env.data_path": data } }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(writtenState()).toEqual(state);
  });
});

describe("the worker: split files only for a created run, and its files checked again", () => {
  let swapped: string;

  it("a run whose upload link was swapped to a file outside after creation fails with a clear message", async () => {
    const link = join(uploadsDir, `swap-${randomUUID()}.jsonl`);
    symlinkSync(join(cwd, "configs/custom/example.jsonl"), link);
    cleanup.push(link);
    const res = await runsRoute.POST(
      post("/api/runs", { preset: "custom/sample.yaml", overrides: { "env.data_path": link, "train.num_epochs": 1 } }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    swapped = ((await res.json()) as { id: string }).id;
    rmSync(link);
    symlinkSync(join(outside, "data.jsonl"), link);
    startWorker();
    expect(await finalStatus(swapped)).toBe("failed");
    expect((await findRun(swapped))!.errorMessage).toMatch(
      /^env\.data_path: .* is outside the folders the dashboard may read/,
    );
    const dataset = await datasetRoute.GET(new Request(`${base}/x`), { params: Promise.resolve({ runId: swapped }) });
    expect(dataset.status).toBe(422);
  });

  it("an accepted run from an upload trains, and its split files land under .skillopt/splits/ only", async () => {
    const data = await upload("accepted.jsonl", example.replaceAll("What is", "Which is"));
    const before = existsSync(splitsDir) ? readdirSync(splitsDir) : [];
    const presetFolder = join(splitsDir, "custom-example");
    const presetFolderBefore = existsSync(presetFolder);
    const res = await runsRoute.POST(
      post("/api/runs", { preset: "custom/sample.yaml", overrides: { "env.data_path": data, "train.num_epochs": 1 } }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await finalStatus(id)).toBe("succeeded");
    const added = readdirSync(splitsDir).filter((d) => !before.includes(d));
    expect(added).toEqual([expect.stringMatching(/^custom_2-1-1_seed42_[0-9a-f]{12}$/)]);
    cleanup.push(join(splitsDir, added[0]!));
    expect(existsSync(join(splitsDir, added[0]!, "split_manifest.json"))).toBe(true);
    expect(existsSync(presetFolder)).toBe(presetFolderBefore); // the preset's split_output_dir is for the CLI only
  });
});

import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { testDb } from "./helpers";

// Issue 15, findings 1, 3 and 4, over real HTTP against the running dashboard: each attempt is a 422
// naming the field, on create and on the estimate, with no run row and no file written.
const outside = mkdtempSync(join(tmpdir(), "e2e-trust-"));
const uploads = join(process.cwd(), ".skillopt", "uploads");
const link = join(uploads, `e2e-link-${randomUUID()}.jsonl`);

test.beforeAll(() => {
  writeFileSync(join(outside, "keys.json"), JSON.stringify({ OPENAI_API_KEY: "sk-leak-e2e-0123456789" }));
  mkdirSync(uploads, { recursive: true });
  symlinkSync(join(outside, "keys.json"), link);
});
test.afterAll(() => {
  rmSync(link, { force: true });
  rmSync(outside, { recursive: true, force: true });
});

function writtenState(): string[] {
  const walk = (dir: string, rel = ""): string[] =>
    !existsSync(dir)
      ? []
      : readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name), `${rel}${e.name}/`) : [`${rel}${e.name}`],
        );
  return walk(join(process.cwd(), ".skillopt"))
    .filter((p) => !/\.db(-wal|-shm|-journal)?$/.test(p))
    .sort();
}

const attempts: Array<[string, string, Record<string, unknown>]> = [
  ["env.skill_init", "searchqa/sample.yaml", { "env.skill_init": "/proc/self/environ" }],
  ["env.skill_init", "searchqa/sample.yaml", { "env.skill_init": "/etc/passwd" }],
  ["env.data_path", "custom/sample.yaml", { "env.data_path": join(outside, "keys.json") }],
  ["env.data_path", "custom/sample.yaml", { "env.data_path": link }],
  [
    "model.codex_exec_path",
    "searchqa/sample.yaml",
    { "model.target_backend": "codex-exec", "model.codex_exec_path": "/bin/sh" },
  ],
  [
    "model.claude_code_exec_path",
    "searchqa/sample.yaml",
    { "model.target_backend": "claude-code-exec", "model.claude_code_exec_path": "/bin/sh" },
  ],
  [
    "model.openai_base_url",
    "searchqa/sample.yaml",
    { "model.backend": "openai", "model.openai_base_url": "http://evil.example/v1" },
  ],
  [
    "model.target_anthropic_base_url",
    "searchqa/sample.yaml",
    { "model.target_backend": "anthropic", "model.target_anthropic_base_url": "http://evil.example" },
  ],
  [
    "env.search_auth_env",
    "officeqa/sample.yaml",
    { "env.search_mode": "custom_search", "env.search_auth_env": "OPENAI_API_KEY" },
  ],
  ["env.split_output_dir", "custom/sample.yaml", { "env.split_output_dir": join(outside, "made-by-request") }],
  ["train.num_epochs", "searchqa/sample.yaml", { "train.num_epochs": 1e9 }],
];

async function refused(
  request: APIRequestContext,
  path: string,
  data: unknown,
): Promise<{ field?: string; message: string }> {
  const res = await request.post(path, { data });
  const text = await res.text();
  expect(res.status(), text).toBe(422);
  expect(text).not.toMatch(/sk-leak|root:x:|PATH=/);
  return (JSON.parse(text) as { error: { field?: string; message: string } }).error;
}

test("[SECURITY]: config keys naming files, programs, endpoints and outputs are refused over HTTP, writing nothing", async ({
  request,
}) => {
  const db = testDb();
  try {
    const rows = await db.run.count();
    const state = writtenState();
    for (const [field, preset, overrides] of attempts) {
      for (const path of ["/api/runs", "/api/runs/estimate"]) {
        const error = await refused(request, path, { preset, overrides });
        expect(error.field, `${path} ${JSON.stringify(overrides)}`).toBe(field);
      }
    }
    for (const preset of ["../../etc/passwd.yaml", "searchqa/../../../etc/x.yaml", "/etc/x.yaml"]) {
      expect((await refused(request, "/api/runs", { preset })).field).toBe("preset");
    }
    expect(await db.run.count()).toBe(rows);
    expect(writtenState()).toEqual(state);
    expect(existsSync(join(outside, "made-by-request"))).toBe(false);
  } finally {
    await db.$disconnect();
  }
});

test("[SECURITY]: the messages say what to do and name no file content", async ({ request }) => {
  const read = await refused(request, "/api/runs", {
    preset: "searchqa/sample.yaml",
    overrides: { "env.skill_init": "/etc/passwd" },
  });
  expect(read.message).toMatch(
    /^env\.skill_init: \/etc\/passwd is outside the folders the dashboard may read \(configs\/, data\/, \.skillopt\/uploads\//,
  );
  const exec = await refused(request, "/api/runs", {
    preset: "searchqa/sample.yaml",
    overrides: { "model.codex_exec_path": "/bin/sh" },
  });
  expect(exec.message).toMatch(/set it in the server's environment or a config file under configs\//);
});

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { confinedPathGuard, localPathGuard, realPathOf } from "./path-guard";

// A project root with one allowed folder and one allowed file, and a secret folder beside it.
const base = mkdtempSync(path.join(tmpdir(), "path-guard-"));
const root = path.join(base, "project");
const secret = path.join(base, "secret");
afterAll(() => rmSync(base, { recursive: true, force: true }));
for (const d of ["data/sub", "configs", "other"]) mkdirSync(path.join(root, d), { recursive: true });
mkdirSync(secret);
writeFileSync(path.join(secret, "keys.json"), '{"OPENAI_API_KEY":"sk-live-123"}');
writeFileSync(path.join(root, "data/sub/items.jsonl"), "{}\n");
writeFileSync(path.join(root, "configs/initial.md"), "# skill\n");
writeFileSync(path.join(root, "other/notes.md"), "x\n");
symlinkSync(secret, path.join(root, "data/escape")); // a symlink inside a root that leads out
symlinkSync(path.join(root, "data/sub"), path.join(root, "other/inward")); // outside a root, pointing in

const guard = confinedPathGuard({
  rootDir: root,
  roots: ["data", "configs/initial.md", path.join(base, "missing-root")],
  rootsLabel: "data/, configs/initial.md",
});

function refusal(raw: string): string {
  const r = guard.check("env.data_path", raw);
  if (r.ok) throw new Error(`expected a refusal for ${raw}, got ${r.path}`);
  return r.reason;
}

describe("confined path guard (dashboard runs)", () => {
  it("accepts paths inside a root, relative or absolute, and returns the real path", () => {
    expect(guard.input("env.data_path", "data/sub/items.jsonl")).toBe(
      realPathOf(path.join(root, "data/sub/items.jsonl")),
    );
    expect(guard.input("env.split_dir", path.join(root, "data/sub"))).toBe(realPathOf(path.join(root, "data/sub")));
    expect(guard.input("env.skill_init", "configs/initial.md")).toBe(realPathOf(path.join(root, "configs/initial.md")));
  });

  it("accepts a path inside a root that does not exist yet (reading it fails later, as for the CLI)", () => {
    expect(guard.check("env.data_path", "data/new/file.jsonl")).toEqual({
      ok: true,
      path: path.join(realPathOf(path.join(root, "data")), "new/file.jsonl"),
    });
  });

  it.each([
    ["/proc/self/environ"],
    ["/etc/passwd"],
    ["../secret/keys.json"],
    ["data/../../secret/keys.json"],
    [path.join(secret, "keys.json")],
    ["configs/other.md"], // a sibling of an allowed single file
    ["other/notes.md"],
    ["data/escape/keys.json"], // through a symlink planted inside a root
    ["data/escape/not-there.json"],
  ])("refuses %s, naming the field and the path as written, never the contents", (raw) => {
    const reason = refusal(raw);
    expect(reason).toBe(
      `env.data_path: ${raw} is outside the folders the dashboard may read (data/, configs/initial.md)`,
    );
    expect(reason).not.toContain("sk-live");
  });

  it("throws an INVALID_REQUEST AppError naming the field from input()", () => {
    expect(() => guard.input("env.skill_init", "/etc/passwd")).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST", field: "env.skill_init" }),
    );
  });

  it("needs both the path as written and its real location inside a root (a symlink from outside into one is refused)", () => {
    expect(guard.check("env.split_dir", "other/inward").ok).toBe(false);
    expect(guard.check("env.split_dir", "data/sub").ok).toBe(true);
  });

  it("gives the same refusal whether or not the outside path exists, so it cannot probe the disk", () => {
    const existing = path.join(secret, "keys.json");
    const absent = path.join(secret, "absent.json");
    expect(refusal(existing).replace(existing, "P")).toBe(refusal(absent).replace(absent, "P"));
    expect(refusal("data/escape/keys.json").replace("keys", "K")).toBe(
      refusal("data/escape/not-there.json").replace("not-there", "K"),
    );
  });
});

describe("local path guard (the CLI)", () => {
  it("resolves any path against the project root, outside ones included", () => {
    const local = localPathGuard(root);
    expect(local.confined).toBe(false);
    expect(local.input("env.skill_init", "/etc/passwd")).toBe("/etc/passwd");
    expect(local.input("env.data_path", "../secret/keys.json")).toBe(path.join(secret, "keys.json"));
    expect(local.check("env.data_path", "data/escape/keys.json")).toEqual({
      ok: true,
      path: path.join(root, "data/escape/keys.json"),
    });
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { requirementsTable } from "./index.mjs";

describe("README", () => {
  it("shows the system packages table exactly as lib/system knows it (`node scripts/system-packages.mjs table`)", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(
      readme,
      "README.md: paste the output of `node scripts/system-packages.mjs table` under Quick start",
    ).toContain(requirementsTable());
  });
});

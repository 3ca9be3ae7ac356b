import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { requirementsTable } from "./index.mjs";

/** A markdown table's content without its column padding (Prettier aligns the README's columns). */
function normaliseTables(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) =>
      line.trimStart().startsWith("|")
        ? line
            .trim()
            .split("|")
            .map((cell) => cell.trim().replace(/^-+$/, "---"))
            .join("|")
        : line,
    )
    .join("\n");
}

describe("README", () => {
  it("shows the system packages table exactly as lib/system knows it (`node scripts/system-packages.mjs table`)", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(
      normaliseTables(readme),
      "README.md: paste the output of `node scripts/system-packages.mjs table` under Quick start",
    ).toContain(normaliseTables(requirementsTable()));
  });

  it("a changed cell is still caught once the padding is ignored", () => {
    const table = normaliseTables(requirementsTable());
    expect(table).not.toContain(normaliseTables(requirementsTable().replace("redis-server", "redis")));
  });
});

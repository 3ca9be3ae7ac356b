import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RunConfigSchema } from "@/lib/contracts/run-config";
import { SandboxNotice } from "./SandboxNotice";

const render = (env: Record<string, unknown>) =>
  renderToStaticMarkup(createElement(SandboxNotice, { run: { config: RunConfigSchema.parse({ env }) } }));

describe("SandboxNotice", () => {
  it("warns on a SpreadsheetBench run that allows running without the sandbox", () => {
    const html = render({ name: "spreadsheetbench", allow_unsandboxed: true });
    expect(html).toContain('data-testid="sandbox-notice"');
    expect(html).toContain("Model-written code may run without the sandbox");
    expect(html).toContain("can read this machine&#x27;s files and reach the network");
  });

  it("stays silent for sandboxed runs and other benchmarks", () => {
    expect(render({ name: "spreadsheetbench" })).toBe("");
    expect(render({ name: "searchqa" })).toBe("");
  });
});

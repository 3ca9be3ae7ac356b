import { describe, expect, it } from "vitest";
import { buildStage } from "./build";

describe("next build output → one progress line per stage", () => {
  it("names each stage of a build, with the page count while pages are generated", () => {
    const lines = [
      "   ▲ Next.js 16.4.6",
      "   Creating an optimized production build ...",
      " ✓ Compiled successfully in 48s",
      "   Linting and checking validity of types ...",
      "   Collecting page data ...",
      "   Generating static pages (0/14) ...",
      "\x1b[32m ✓\x1b[39m Generating static pages (14/14)",
      "   Finalizing page optimization ...",
      "Route (app)                                 Size  First Load JS",
    ];
    expect(lines.map(buildStage)).toEqual([
      null,
      "compiling",
      "compiled",
      "checking types",
      "collecting page data",
      "generating pages 0/14",
      "generating pages 14/14",
      "finalizing",
      null,
    ]);
  });
});

/**
 * Renders the DocVQA sample documents (`lib/envs/docvqa/sample/documents/*.html`, invented content) to
 * the PNG page images the sample items point at (`lib/envs/docvqa/sample/images/*.png`).
 *
 *   node --import tsx scripts/render-docvqa-sample.ts [--chromium /usr/bin/chromium]
 *
 * Re-runnable: every page is rendered with the same stylesheet, viewport and device scale, so the same
 * browser build and fonts give the same images. Needs a Chromium binary (Debian: `apt-get install
 * chromium`; default path /usr/bin/chromium, or pass --chromium / set CHROMIUM_PATH).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const SAMPLE_DIR = path.resolve(import.meta.dirname, "../lib/envs/docvqa/sample");
const DOCUMENTS = path.join(SAMPLE_DIR, "documents");
const IMAGES = path.join(SAMPLE_DIR, "images");
/** Page width in CSS pixels (= image width at device scale 1). */
const PAGE_WIDTH = 780;

/** One stylesheet for every page: a plain, greyscale office-document look. */
const PAGE_CSS = `
  * { box-sizing: border-box; }
  html { background: #fff; filter: grayscale(1); }
  body { margin: 0; padding: 36px 44px 40px; width: ${PAGE_WIDTH}px; color: #111;
         font: 16px/1.4 "Liberation Serif", "DejaVu Serif", serif; }
  h1 { font: bold 26px/1.2 "Liberation Sans", "DejaVu Sans", sans-serif; margin: 0 0 6px; }
  h2 { font: bold 19px/1.2 "Liberation Sans", "DejaVu Sans", sans-serif; margin: 8px 0; }
  p { margin: 6px 0; }
  .small { font-size: 13px; color: #333; }
  .center { text-align: center; }
  .right { text-align: right; }
  .row { display: flex; justify-content: space-between; gap: 24px; margin: 10px 0; }
  .box { border: 1px solid #222; padding: 8px 12px; flex: 1; }
  .wide { padding: 16px 20px; }
  .narrow { width: 360px; margin: 0 auto; font-family: "Liberation Mono", "DejaVu Sans Mono", monospace; font-size: 15px; }
  table { border-collapse: collapse; width: 100%; margin: 12px 0; }
  th, td { border: 1px solid #222; padding: 4px 8px; text-align: left; }
  th { background: #ddd; font-family: "Liberation Sans", "DejaVu Sans", sans-serif; font-size: 14px; }
  table.plain td, table.totals td { border: none; padding: 2px 8px 2px 0; }
  table.totals { width: 40%; margin-left: 60%; }
  table.form td:nth-child(odd) { background: #eee; width: 22%; font-family: "Liberation Sans", "DejaVu Sans", sans-serif; font-size: 13px; }
  .ink { font: italic 21px "DejaVu Serif", serif; color: #223; }
  hr { border: none; border-top: 2px solid #222; margin: 10px 0; }
`;

function chromiumPath(argv: readonly string[]): string {
  const at = argv.indexOf("--chromium");
  if (at >= 0 && argv[at + 1]) return argv[at + 1] as string;
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

function pageHtml(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${PAGE_CSS}</style></head><body>${body}</body></html>`;
}

async function main(): Promise<void> {
  const files = readdirSync(DOCUMENTS)
    .filter((f) => f.endsWith(".html"))
    .sort();
  const browser = await chromium.launch({
    executablePath: chromiumPath(process.argv),
    args: ["--font-render-hinting=none", "--disable-lcd-text", "--force-color-profile=srgb"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: PAGE_WIDTH, height: 400 }, deviceScaleFactor: 1 });
    for (const file of files) {
      await page.setContent(pageHtml(readFileSync(path.join(DOCUMENTS, file), "utf8")), { waitUntil: "load" });
      const out = path.join(IMAGES, file.replace(/\.html$/, ".png"));
      await page.screenshot({ path: out, fullPage: true, type: "png", animations: "disabled", caret: "hide" });
      console.log(`${path.relative(process.cwd(), out)}  ${Math.round(statSync(out).size / 1024)} KB`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

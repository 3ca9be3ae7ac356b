/**
 * The pixels of an item's strip (pure): one column per evaluation, the current skill's result as a thick
 * band (rows 0–7) over what each evaluation measured as a thin, lighter band (rows 10–13). Written as one
 * RGBA buffer, so a 1,000-evaluation strip is one putImageData instead of a rectangle per change of code.
 */
import type { ResultCode } from "@/lib/contracts/item-history";

export const STRIP_HEIGHT = 14;
const THICK: readonly [number, number] = [0, 8];
const THIN: readonly [number, number] = [10, 14];
/** The thin band's opacity (70 %). */
const THIN_ALPHA = 179;

export const CODE_FILL: Record<ResultCode, string> = { "1": "#10b981", "0": "#ef4444", e: "#f59e0b", ".": "#e5e7eb" };

const rgb = (hex: string): [number, number, number] => [
  parseInt(hex.slice(1, 3), 16),
  parseInt(hex.slice(3, 5), 16),
  parseInt(hex.slice(5, 7), 16),
];
const RGB = Object.fromEntries(Object.entries(CODE_FILL).map(([c, hex]) => [c, rgb(hex)])) as Record<
  ResultCode,
  [number, number, number]
>;

/** RGBA pixels, `width` × STRIP_HEIGHT; a missing or unknown code is drawn as "not evaluated". */
export function stripPixels(current: string, cells: string, width: number): Uint8ClampedArray<ArrayBuffer> {
  const px = new Uint8ClampedArray(width * STRIP_HEIGHT * 4);
  const band = (codes: string, [from, to]: readonly [number, number], alpha: number) => {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = RGB[codes[x] as ResultCode] ?? RGB["."];
      for (let y = from; y < to; y++) {
        const o = (y * width + x) * 4;
        px[o] = r;
        px[o + 1] = g;
        px[o + 2] = b;
        px[o + 3] = alpha;
      }
    }
  };
  band(current, THICK, 255);
  band(cells, THIN, THIN_ALPHA);
  return px;
}

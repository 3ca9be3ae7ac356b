import { describe, expect, it } from "vitest";
import { PyRandom } from "../py-random";
import { section, skillBlock } from "./common";

// Characters JavaScript's \s matches (WhiteSpace, Unicode space separators and the BOM among them, and
// LineTerminator), two look-alikes it does not (U+180E, U+200B), and text.
const SPACES = [" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029"];
const OTHERS = ["\u202f", "\u205f", "\u3000", "\ufeff", "\u180e", "\u200b", "a", "#", "é", "x y"];

describe("prompt sections trim trailing whitespace as /\\s+$/ does", () => {
  it("gives the regex replacement's text over random strings", () => {
    const rng = new PyRandom(2026);
    const all = [...SPACES, ...OTHERS];
    for (let trial = 0; trial < 2_000; trial++) {
      const body = Array.from({ length: rng.randbelow(12) }, () => all[rng.randbelow(all.length)]!).join("");
      const want = body.replace(/\s+$/, "");
      expect(section("T", body)).toBe(`## T\n${want}\n`);
      expect(skillBlock(body)).toBe(`<skill>\n${want}\n</skill>`);
    }
  });
});

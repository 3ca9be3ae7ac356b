import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRunConfig } from "./index";

// Each configs/<benchmark>/default.yaml ("paper settings") starts from a seed equivalent in information
// to the original's seed for that config (microsoft/SkillOpt skillopt/envs/<benchmark>/skills/initial.md),
// written in our own words. Each row lists the pieces of information the original's seed gives.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const read = (rel: string) => readFileSync(`${ROOT}/${rel}`, "utf8");
const seedOf = (folder: string) => {
  const { config } = loadRunConfig(`${ROOT}/configs/${folder}/default.yaml`);
  return { path: config.env.skill_init, text: read(config.env.skill_init), name: config.env.name };
};

const INFO: Record<string, RegExp[]> = {
  searchqa: [/^# Question Answering Skill\n/],
  alfworld: [
    /admissible actions/i,
    /<think>\.\.\.<\/think>.*<action>\.\.\.<\/action>/,
    /Pick & Place/,
    /Pick Two & Place/,
    /Examine in Light.*desklamp/,
    /Clean & Place.*sink/,
    /Heat & Place.*microwave/,
    /Cool & Place.*fridge/,
    /ordered sub-goals/,
    /open closed containers/i,
    /pick it up before going anywhere else/,
    /before heading to the destination/,
    /go straight to the target receptacle/,
    /how many objects still have to be found/,
    /never take the same action more than twice in a row/i,
    /never make one up/,
    /Searching the same place again/,
    /Stopping early/,
  ],
  docvqa: [
    /Read the document carefully/,
    /shortest exact piece of text/,
    /neighbouring labels or position on the page/,
    /Copy names, numbers and dates exactly/,
    /rather than paraphrasing/,
    /compare the answer with the nearby alternatives/,
  ],
  livemath: [
    /Weigh every option before choosing/,
    /strongest statement the question justifies/,
    /leave out an equality case/,
    /"there exists", "for every", "if and only if", "exactly when"/,
    /dropping a characterisation, an equality clause or a full equivalence/,
    /raising the regularity, removing a restriction on scale, or turning an existence statement into a universal one/,
    /change the assumptions it needs/,
    /whole family or only for a restricted sub-family/,
    /only the label of the single chosen option/,
  ],
  officeqa: [
    /narrow down to the most likely candidate file, before reading any long passage/,
    /exact entity, period, measure or table concept/,
    /read only a small span around it and confirm it matches the requested year, basis and unit/,
    /exact value out of the retrieved text before doing any arithmetic/,
    /period, unit and role/,
    /compute it only after every operand is confirmed/,
    /one last check that it is consistent with the retrieved evidence/,
    /never from an unchecked intermediate guess/,
  ],
  spreadsheetbench: [
    /`openpyxl`/,
    /`pandas`/,
    /Use no other third-party library/,
    /list its sheets, look at the headers, check the dimensions/,
    /`INPUT_PATH` and `OUTPUT_PATH`/,
    /`pandas.to_excel\(\)` quietly throws away existing formulas and named ranges/,
    /openpyxl\.load_workbook\(INPUT_PATH\)/,
    /wb\.save\(OUTPUT_PATH\)/,
    /never hard-coded: loop over the rows the workbook actually has/,
    /Sheets and cells the instruction does not mention stay as they were/,
  ],
};

describe("paper settings start from the original's seed (in our words)", () => {
  it.each(Object.keys(INFO))("%s/default.yaml: the paper-style seed", (folder) => {
    const seed = seedOf(folder);
    expect(seed.path).toBe(`configs/${folder}/seed-paper.md`);
    for (const info of INFO[folder]!) expect(seed.text, String(info)).toMatch(info);
    // Our own seed stays available as a named option, and is a different document.
    const own = read(`lib/envs/${seed.name}/initial.md`);
    expect(own.trim()).not.toBe(seed.text.trim());
  });

  it("searchqa: the original's empty seed, a heading and a placeholder with no rules", () => {
    const { text } = seedOf("searchqa");
    expect(text).not.toMatch(/^\s*[-*] /m);
    expect(text).not.toMatch(/^## /m);
  });

  it("our seeds do not contradict the paper seed's instructions they share (spreadsheetbench paths)", () => {
    // Our code-writing target gets INPUT_PATH and OUTPUT_PATH already defined and is told not to assign
    // them; the seed's skeleton therefore uses them without re-assigning a placeholder.
    expect(seedOf("spreadsheetbench").text).not.toMatch(/^\s*(INPUT|OUTPUT)_PATH\s*=/m);
  });
});

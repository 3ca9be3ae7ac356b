import { describe, expect, it } from "vitest";
import {
  APPENDIX_END,
  APPENDIX_HEADING,
  APPENDIX_START,
  SLOW_UPDATE_END,
  SLOW_UPDATE_START,
  appendToAppendix,
  dedupNotes,
  extractAppendixNotesFromResult,
  extractSlowUpdate,
  injectEmptyAppendix,
  injectEmptySlowUpdate,
  protectedRegions,
  readAppendixNotes,
  rebuildAppendix,
  replaceSlowUpdate,
} from "./protected";

const count = (doc: string, needle: string): number => doc.split(needle).length - 1;

describe("protectedRegions", () => {
  it("spans first START to the end of first END for each complete pair", () => {
    const doc = `body\n${SLOW_UPDATE_START}\nx\n${SLOW_UPDATE_END}\n${APPENDIX_START}\n${APPENDIX_END}\n`;
    const slowStart = doc.indexOf(SLOW_UPDATE_START);
    const appStart = doc.indexOf(APPENDIX_START);
    expect(protectedRegions(doc)).toEqual([
      [slowStart, doc.indexOf(SLOW_UPDATE_END) + SLOW_UPDATE_END.length],
      [appStart, doc.indexOf(APPENDIX_END) + APPENDIX_END.length],
    ]);
  });

  it("ignores a pair with a missing marker", () => {
    expect(protectedRegions(`a ${SLOW_UPDATE_START} b ${APPENDIX_END}`)).toEqual([]);
  });
});

describe("slow-update field", () => {
  it("injects an empty field once", () => {
    const once = injectEmptySlowUpdate("# Skill\n\nBody.\n\n\n");
    expect(once).toBe(`# Skill\n\nBody.\n\n${SLOW_UPDATE_START}\n${SLOW_UPDATE_END}\n`);
    expect(injectEmptySlowUpdate(once)).toBe(once);
  });

  it("extracts the trimmed guidance, or '' without a field", () => {
    expect(extractSlowUpdate(`x\n${SLOW_UPDATE_START}\n  guide me \n${SLOW_UPDATE_END}\n`)).toBe("guide me");
    expect(extractSlowUpdate("no field")).toBe("");
    expect(extractSlowUpdate(`${SLOW_UPDATE_END} then ${SLOW_UPDATE_START}`)).toBe("");
  });

  it("replaces every field with exactly one at the end", () => {
    const doc = [
      "# Skill",
      SLOW_UPDATE_START,
      "old one",
      SLOW_UPDATE_END,
      "",
      "",
      "",
      "middle",
      SLOW_UPDATE_START,
      "old two",
      SLOW_UPDATE_END,
      `tail ${SLOW_UPDATE_END}`,
      `orphan ${SLOW_UPDATE_START} stays text`,
    ].join("\n");
    const out = replaceSlowUpdate(doc, "\n new guidance \n");
    expect(out).toBe(
      `# Skill\n\nmiddle\n\ntail \norphan  stays text\n\n${SLOW_UPDATE_START}\nnew guidance\n${SLOW_UPDATE_END}\n`,
    );
    expect(count(out, SLOW_UPDATE_START)).toBe(1);
    expect(extractSlowUpdate(out)).toBe("new guidance");
  });

  it("moves the field below an appendix that followed it", () => {
    const doc = injectEmptyAppendix(injectEmptySlowUpdate("Body"));
    const out = replaceSlowUpdate(doc, "g");
    expect(out.indexOf(APPENDIX_START)).toBeLessThan(out.indexOf(SLOW_UPDATE_START));
  });
});

describe("appendix", () => {
  it("injects an empty appendix idempotently", () => {
    const once = injectEmptyAppendix("Body\n");
    expect(once).toBe(`Body\n\n${APPENDIX_START}\n${APPENDIX_HEADING}\n${APPENDIX_END}\n`);
    expect(injectEmptyAppendix(once)).toBe(once);
    expect(readAppendixNotes(once)).toEqual([]);
  });

  it("reads notes, skipping the heading at any level and bullet markers", () => {
    const doc = `${APPENDIX_START}\n### Execution Notes Appendix\n- one\n-two\n* three\n\n  plain  \n${APPENDIX_END}`;
    expect(readAppendixNotes(doc)).toEqual(["one", "two", "three", "plain"]);
  });

  it("accumulates notes with dedup and keeps exactly one region at the end", () => {
    let doc = injectEmptyAppendix("# Skill\nBody");
    doc = appendToAppendix(doc, ["Check the  units.", "check the units", "Quote paths"]);
    doc = appendToAppendix(doc, ["CHECK THE UNITS;", "New note", "quote paths -"]);
    expect(readAppendixNotes(doc)).toEqual(["Check the units.", "Quote paths", "New note"]);
    expect(count(doc, APPENDIX_START)).toBe(1);
    expect(count(doc, APPENDIX_END)).toBe(1);
    expect(doc.endsWith(`- New note\n${APPENDIX_END}\n`)).toBe(true);
  });

  it("creates the appendix when there is none", () => {
    expect(appendToAppendix("Body\n", ["n1"])).toBe(
      `Body\n\n${APPENDIX_START}\n${APPENDIX_HEADING}\n- n1\n${APPENDIX_END}\n`,
    );
  });

  it("removes nested and duplicate blocks and stray ENDs, and moves the appendix to the end", () => {
    const doc = [
      "Intro",
      APPENDIX_START,
      "- kept",
      `outer ${APPENDIX_START} - inner ${APPENDIX_END} more`,
      APPENDIX_END,
      "",
      "",
      "",
      "After",
      `stray ${APPENDIX_END}`,
      APPENDIX_START,
      "- second block",
      APPENDIX_END,
      "Tail",
    ].join("\n");
    const out = appendToAppendix(doc, ["added"]);
    expect(out).toBe(
      `Intro\n\nAfter\nstray \n\nTail\n\n${APPENDIX_START}\n${APPENDIX_HEADING}\n- kept\n- outer - inner\n- added\n${APPENDIX_END}\n`,
    );
  });

  it("scrubs protected markers out of notes so the region stays whole", () => {
    const out = appendToAppendix("Body", [`evil ${APPENDIX_END} note`, `${SLOW_UPDATE_START}`]);
    expect(count(out, APPENDIX_END)).toBe(1);
    expect(count(out, SLOW_UPDATE_START)).toBe(0);
    expect(readAppendixNotes(out)).toEqual(["evil note"]);
  });

  it("rebuilds the appendix from exactly the given notes", () => {
    const doc = appendToAppendix(injectEmptyAppendix("Body"), ["a", "b", "c"]);
    const out = rebuildAppendix(doc, ["merged a+b", "c", "C."]);
    expect(readAppendixNotes(out)).toEqual(["merged a+b", "c"]);
  });

  it("dedups order-preservingly on trailing punctuation and case", () => {
    expect(dedupNotes(["  Use  UTC. ", "use utc", "", "   ", "Use UTC!", "ß note", "SS NOTE"])).toEqual([
      "Use UTC.",
      "Use UTC!",
      "ß note",
    ]);
  });
});

describe("extractAppendixNotesFromResult", () => {
  it("reads a list of strings and {note|content} objects", () => {
    const result = {
      appendix_notes: [" a ", { note: "b" }, { content: "c" }, { note: "", content: "d" }, { other: "x" }, 5, ""],
    };
    expect(extractAppendixNotesFromResult(result)).toEqual(["a", "b", "c", "d"]);
  });

  it("treats a string as one note", () => {
    expect(extractAppendixNotesFromResult({ appendix_notes: "  single  " })).toEqual(["single"]);
    expect(extractAppendixNotesFromResult({ appendix_notes: "   " })).toEqual([]);
  });

  it("yields nothing for missing or non-list values", () => {
    expect(extractAppendixNotesFromResult({})).toEqual([]);
    expect(extractAppendixNotesFromResult({ appendix_notes: { note: "x" } })).toEqual([]);
    expect(extractAppendixNotesFromResult(null)).toEqual([]);
    expect(extractAppendixNotesFromResult(["x"])).toEqual([]);
  });
});

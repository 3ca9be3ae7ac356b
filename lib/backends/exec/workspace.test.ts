import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SKILL_HEADING, withSkillSection } from "../../envs/common/skill-prompt";
import { buildSearchQaSystemPrompt, SEARCHQA_SYSTEM_BASE } from "../../envs/searchqa/prompt";
import { makeScratch, SKILL, targetRequest, type Scratch } from "./test-helpers";
import {
  BLANK_SKILL_NOTE,
  createWorkspace,
  removeWorkspace,
  renderSkillFile,
  renderTask,
  skillBodyOf,
  SKILL_HEADING_LINE,
  splitSkill,
} from "./workspace";

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

describe("splitSkill", () => {
  it("uses the same heading as the envs and recovers their skill section exactly", () => {
    expect(SKILL_HEADING_LINE).toBe(SKILL_HEADING);
    expect(splitSkill(buildSearchQaSystemPrompt(SKILL))).toEqual({ instructions: SEARCHQA_SYSTEM_BASE, skill: SKILL });
  });

  it("splits at the first heading, so a skill may contain its own '## Skill' line", () => {
    const skill = "Intro\n## Skill\nnested heading stays in the skill";
    expect(splitSkill(withSkillSection("Base.", skill))).toEqual({ instructions: "Base.", skill });
  });

  it("treats a prompt without a skill section as instructions only", () => {
    expect(splitSkill(withSkillSection("Base.\n", "   "))).toEqual({ instructions: "Base.", skill: "" });
    expect(skillBodyOf(renderSkillFile(""))).toBe(`${BLANK_SKILL_NOTE}\n`);
  });
});

describe("renderTask", () => {
  it("shows a multi-turn conversation with roles and asks for a reply to the last message", () => {
    const { task } = renderTask("Do X.", [
      { role: "user", content: "Q1" },
      { role: "assistant", content: "<answer>A1</answer>" },
      { role: "user", content: "Check again." },
    ]);
    expect(task).toMatch(
      /### User\n\nQ1\n\n### Assistant \(your earlier reply\)\n\n<answer>A1<\/answer>\n\n### User\n\nCheck again\./,
    );
    expect(task.trimEnd().endsWith("Answer the last user message.")).toBe(true);
  });
});

describe("createWorkspace", () => {
  it("writes the skill, the task and numbered attachments, and removes everything again", async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0x00]).toString("base64");
    const req = targetRequest({
      messages: [
        {
          role: "user",
          content: [
            { type: "image", mediaType: "image/jpeg", dataBase64: jpeg },
            { type: "text", text: "What is shown?" },
            { type: "image", mediaType: "image/x-odd", dataBase64: jpeg },
          ],
        },
      ],
    });
    const ws = await createWorkspace(req, scratch.workRoot);
    expect(ws.attachments).toEqual(["attachments/01_image.jpg", "attachments/02_image.bin"]);
    expect(readFileSync(join(ws.dir, "attachments/01_image.jpg")).toString("base64")).toBe(jpeg);
    expect(readFileSync(join(ws.dir, "ATTACHMENTS.md"), "utf8")).toContain("- attachments/02_image.bin (image/x-odd)");
    expect(readFileSync(join(ws.dir, "task.md"), "utf8")).toContain(
      "[image: attachments/01_image.jpg]\nWhat is shown?\n[image: attachments/02_image.bin]",
    );
    expect(skillBodyOf(readFileSync(join(ws.dir, ".agents/skills/skillopt-target/SKILL.md"), "utf8"))).toBe(
      `${SKILL}\n`,
    );
    await removeWorkspace(ws.dir);
    expect(existsSync(ws.dir)).toBe(false);
  });

  it("names an attachment after its file (folders and unsafe characters dropped), as the original does", async () => {
    const png = Buffer.from([0x89, 0x50]).toString("base64");
    const req = targetRequest({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Read it." },
            { type: "image", mediaType: "image/png", dataBase64: png, name: "../docs/page 1.png" },
          ],
        },
      ],
    });
    const ws = await createWorkspace(req, scratch.workRoot);
    expect(ws.attachments).toEqual(["attachments/01_page_1.png"]);
    expect(readFileSync(join(ws.dir, "attachments/01_page_1.png")).toString("base64")).toBe(png);
    await removeWorkspace(ws.dir);
  });

  it("writes no attachment list for a text-only task", async () => {
    const ws = await createWorkspace(targetRequest(), scratch.workRoot);
    expect(ws.attachments).toEqual([]);
    expect(existsSync(join(ws.dir, "ATTACHMENTS.md"))).toBe(false);
  });
});

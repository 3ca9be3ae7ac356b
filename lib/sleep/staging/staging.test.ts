import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../fs-safe";
import { removeTempDirs, sandbox, writeText } from "../test-helpers";
import { emptyReport } from "../types";
import { readManifest } from "./manifest";
import { renderReportMd } from "./report-md";
import { latestStaging, reserveStagingDir, StagingError, stagingRoot } from "./root";
import { writeStaging, type WriteStagingOptions } from "./write";

afterAll(removeTempDirs);
const T = Date.UTC(2024, 4, 1, 3, 17, 0);

function stage(project: string, dir: string, over: Partial<WriteStagingOptions> = {}): string {
  const report = { ...emptyReport(1, project, "2024-05-01T03:17:00"), accepted: true, gateAction: "accept_new_best" };
  return writeStaging({
    dir,
    report,
    reportMd: "# report\n",
    diagnostics: { night: 1, holdoutDetail: [] },
    liveSkillPath: join(project, "skill", "SKILL.md"),
    liveMemoryPath: join(project, "CLAUDE.md"),
    skill: {
      proposed: "new skill\n",
      livePath: join(project, "skill", "SKILL.md"),
      liveRealpath: join(project, "skill", "SKILL.md"),
      liveSha256: "",
    },
    memory: null,
    skillProposals: [],
    skillRoots: [],
    ...over,
  });
}

describe("staging", () => {
  it("reserves a fresh folder per night, with a numeric suffix when the second is taken", () => {
    const { project } = sandbox();
    const a = reserveStagingDir(project, T);
    const b = reserveStagingDir(project, T);
    expect(b).toBe(`${a}-2`);
    expect(reserveStagingDir(project, T)).toBe(`${a}-3`);
  });

  it("writes the proposal, reports, diagnostics and the pinned manifest, and publishes the night", () => {
    const { project } = sandbox();
    const dir = stage(project, reserveStagingDir(project, T));
    expect(readdirSync(dir).sort()).toEqual([
      "diagnostics.json",
      "manifest.json",
      "proposed_SKILL.md",
      "report.json",
      "report.md",
    ]);
    const m = readManifest(dir);
    expect(m).toMatchObject({
      schema: "skillopt-sleep-staging",
      schema_version: 2,
      has_skill: false,
      has_memory: false,
      has_managed_skill: true,
      has_managed_memory: false,
      accepted: true,
    });
    expect(m.legacy?.skill).toEqual({
      proposed_file: "proposed_SKILL.md",
      sha256: sha256Hex("new skill\n"),
      live_path: join(project, "skill", "SKILL.md"),
      live_realpath: join(project, "skill", "SKILL.md"),
      live_sha256: "",
    });
    expect(JSON.parse(readFileSync(join(dir, "report.json"), "utf8"))).toMatchObject({
      night: 1,
      gate_action: "accept_new_best",
      n_tasks: 0,
    });
    expect(latestStaging(project)).toBe(dir);
  });

  it("a folder without a manifest (a night that failed half-way) is never the latest", () => {
    const { project } = sandbox();
    const done = stage(project, reserveStagingDir(project, T));
    reserveStagingDir(project, T + 60_000);
    expect(latestStaging(project)).toBe(done);
    // without the pointer, the newest folder that has a manifest wins
    const later = stage(project, reserveStagingDir(project, T + 120_000));
    utimesSync(join(done, "manifest.json"), new Date(T), new Date(T));
    expect(latestStaging(project)).toBe(later);
  });

  it("refuses a staging root that is a symbolic link, and a folder that was not reserved", () => {
    const s = sandbox();
    mkdirSync(join(s.root, "elsewhere"));
    mkdirSync(join(s.project, ".skillopt-sleep"));
    symlinkSync(join(s.root, "elsewhere"), stagingRoot(s.project));
    expect(() => reserveStagingDir(s.project, T)).toThrow(StagingError);
    expect(existsSync(join(s.root, "elsewhere", "20240501-031700"))).toBe(false);
    const t = sandbox();
    expect(() => stage(t.project, join(t.project, "random"))).toThrow(/not a reserved night folder/);
  });

  it("refuses a per-skill proposal aimed at the managed skill's live file", () => {
    const { project } = sandbox();
    const live = writeText(join(project, "skill", "SKILL.md"), "x");
    expect(() =>
      stage(project, reserveStagingDir(project, T), {
        skillProposals: [{ skillName: "dup", proposedSkill: "y", livePath: live, liveSha256: sha256Hex("x") }],
      }),
    ).toThrow(/same live file/);
  });
});

describe("report.md", () => {
  it("escapes untrusted text and strips terminal controls", () => {
    const r = {
      ...emptyReport(3, "/p", ""),
      gateAction: "reject",
      rejectedEdits: [
        {
          target: "skill" as const,
          op: "add",
          content: "<script>x</script> \u001b[31m*bold*\u001b[0m | `rm`",
          anchor: "",
          rationale: "",
        },
      ],
      notes: ["line1\nline2"],
    };
    const md = renderReportMd(r, { backend: "mock", replayMode: "mock", gateOff: false });
    expect(md).toContain("# SkillOpt-Sleep — night 3");
    expect(md).toContain("- \\[skill/add\\] &lt;script&gt;x&lt;/script&gt; \\*bold\\* &#124; &#96;rm&#96;");
    expect(md).not.toContain("\u001b");
    expect(md).toContain("- line1 line2");
  });

  it("says a leaked night is not validated and lists its edits as unverified suggestions", () => {
    const r = {
      ...emptyReport(1, "/p", ""),
      holdoutLeaked: true,
      gateAction: "reject_unverified",
      rejectedEdits: [{ target: "skill" as const, op: "add", content: "rule", anchor: "", rationale: "" }],
    };
    const md = renderReportMd(r, { backend: "mock", replayMode: "mock", gateOff: false });
    expect(md).toContain("**Not validated.**");
    expect(md).toContain("## Unverified suggestions");
  });
});

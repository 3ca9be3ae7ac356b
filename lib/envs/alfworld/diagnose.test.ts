import { describe, expect, it } from "vitest";
import { formatClauses, householdClauses, traceClauses } from "./diagnose";
import { generateGame } from "./sim/generate";
import { Household } from "./sim/household";

const step = (action: string, feedback = "ok") => ({ action, feedback });

describe("failure diagnosis", () => {
  it("names receptacles visited four times or more, busiest first", () => {
    const trace = [
      "go to a 1",
      "go to b 1",
      "go to a 1",
      "go to b 1",
      "go to a 1",
      "go to b 1",
      "go to a 1",
      "go to a 1",
    ].map((a) => step(a));
    expect(traceClauses(trace)).toContainEqual({
      kind: "revisits",
      core: "kept going back to receptacles it had already searched",
      detail: "a 1 x5",
    });
    expect(traceClauses(trace.slice(0, 6)).find((c) => c.kind === "revisits")).toBeUndefined();
  });

  it("does not count refused moves as visits, reports the last refused action and a repeated ending", () => {
    const trace = [step("go to a 1", "Nothing happens."), ...Array.from({ length: 5 }, () => step("look"))];
    expect(formatClauses(traceClauses(trace))).toBe(
      "repeated 'look' (5 times at the end); last inadmissible action: 'go to a 1'",
    );
    expect(traceClauses(trace.slice(0, 5))).toEqual([
      { kind: "last_inadmissible", core: "last inadmissible action: 'go to a 1'" },
    ]);
  });

  it("reads world facts from the built-in simulator: untreated placement, never opened, never found", () => {
    const game = generateGame(3, "pick_cool_then_place_in_recep");
    const sim = new Household(game);
    sim.reset();
    const closed = game.receptacles.find((r) => r.openable && r.kind !== "fridge")!;
    sim.step(`go to ${closed.name}`);
    const kinds = householdClauses(sim).map((c) => c.kind);
    expect(kinds).toEqual(["never_opened", "never_found"]);
    const obj = game.objects.find((o) => o.kind === game.goal.object)!;
    const target = game.receptacles.find((r) => r.kind === game.goal.target)!.name;
    for (const a of [
      `go to ${obj.at}`,
      `open ${obj.at}`,
      `take ${obj.name} from ${obj.at}`,
      `go to ${target}`,
      `open ${target}`,
      `put ${obj.name} in/on ${target}`,
    ])
      sim.step(a);
    expect(householdClauses(sim)[0]).toEqual({
      kind: "untreated_put",
      core: `put ${obj.name} in ${target} without cooling it first`,
    });
  });
});

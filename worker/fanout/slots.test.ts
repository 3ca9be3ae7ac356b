import { describe, expect, it } from "vitest";
import { Slots, slotsFor } from "./slots";

describe("exec slots", () => {
  it("never runs more than `size` at once, and runs everything", async () => {
    const slots = new Slots(2);
    let now = 0;
    let peak = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        slots.run(async () => {
          now += 1;
          peak = Math.max(peak, now);
          await new Promise((r) => setTimeout(r, 5 + (i % 3)));
          now -= 1;
          done.push(i);
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(slots.idle).toBe(true);
  });

  it("frees the slot when the work fails", async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await slots.run(async () => "next")).toBe("next");
  });

  it("shares one set per run and size in the process", () => {
    expect(slotsFor("r1", 2)).toBe(slotsFor("r1", 2));
    expect(slotsFor("r1", 3)).not.toBe(slotsFor("r1", 2));
  });
});

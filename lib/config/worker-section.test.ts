import { describe, expect, it } from "vitest";
import { loadRunConfig } from "./index";

const SAMPLE = "configs/searchqa/sample.yaml";

describe("worker section (fan-out and exec slots)", () => {
  it("defaults: no fan-out, chunks of exec_slots items, 2 exec slots", () => {
    expect(loadRunConfig(SAMPLE).config.worker).toEqual({ fan_out: false, fan_out_chunk: 0, exec_slots: 2 });
  });

  it("takes structured and flat overrides", () => {
    const { config } = loadRunConfig(SAMPLE, ["worker.fan_out=true", "exec_slots=4", "fan_out_chunk=8"]);
    expect(config.worker).toEqual({ fan_out: true, fan_out_chunk: 8, exec_slots: 4 });
  });

  it.each([
    ["worker.exec_slots=0", /worker\.exec_slots/],
    ["worker.exec_slots=65", /worker\.exec_slots/],
    ["worker.exec_slots=1.5", /worker\.exec_slots/],
    ["worker.fan_out_chunk=-1", /worker\.fan_out_chunk/],
    ["worker.fan_out=maybe", /worker\.fan_out/],
  ])("refuses %s, naming the key", (override, key) => {
    expect(() => loadRunConfig(SAMPLE, [override])).toThrow(key);
  });
});

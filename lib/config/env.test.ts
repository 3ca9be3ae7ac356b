import { afterEach, describe, expect, it } from "vitest";
import { EnvSchema, env, resetEnvCache } from "./env";
import { optedOut } from "../system/index.mjs";

const saved = process.env.SKILLOPT_NO_AUTO_INSTALL;
afterEach(() => {
  if (saved === undefined) delete process.env.SKILLOPT_NO_AUTO_INSTALL;
  else process.env.SKILLOPT_NO_AUTO_INSTALL = saved;
  resetEnvCache();
});

describe("SKILLOPT_NO_AUTO_INSTALL", () => {
  it("accepts exactly the values the installer understands", () => {
    for (const value of ["1", "0", "true", "FALSE", "yes", "no", ""]) {
      process.env.SKILLOPT_NO_AUTO_INSTALL = value;
      resetEnvCache();
      expect(() => env()).not.toThrow();
    }
  });

  it("a typo fails at startup naming the variable, instead of silently leaving installs on", () => {
    process.env.SKILLOPT_NO_AUTO_INSTALL = "y";
    resetEnvCache();
    expect(optedOut({ SKILLOPT_NO_AUTO_INSTALL: "y" })).toBe(false);
    expect(() => env()).toThrow(
      "environment variable SKILLOPT_NO_AUTO_INSTALL: must be 1 (no automatic installs) or 0",
    );
  });
});

describe("SKILLOPT_DATA_ROOTS", () => {
  const roots = (v: string | undefined) => EnvSchema.safeParse({ SKILLOPT_DATA_ROOTS: v });

  it("is a list split at commas or the path delimiter, empty when unset", () => {
    expect(roots(undefined).data?.SKILLOPT_DATA_ROOTS).toEqual([]);
    expect(roots("").data?.SKILLOPT_DATA_ROOTS).toEqual([]);
    expect(roots("/srv/data, datasets:/mnt/bench").data?.SKILLOPT_DATA_ROOTS).toEqual([
      "/srv/data",
      "datasets",
      "/mnt/bench",
    ]);
  });

  it("refuses a filesystem root, which would let the dashboard read every file", () => {
    const r = roots("/srv/data,/");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({
      path: ["SKILLOPT_DATA_ROOTS", 1],
      message: expect.stringContaining("filesystem root"),
    });
  });
});

import { describe, expect, it } from "vitest";
import { EnvSchema } from "./env";

describe("SKILLOPT_DATA_ROOTS", () => {
  const roots = (v: string | undefined) => EnvSchema.safeParse({ SKILLOPT_DATA_ROOTS: v });

  it("is a list split at commas or the path delimiter, empty when unset", () => {
    expect(roots(undefined).data?.SKILLOPT_DATA_ROOTS).toEqual([]);
    expect(roots("").data?.SKILLOPT_DATA_ROOTS).toEqual([]);
    expect(roots("/srv/data, datasets:/mnt/bench").data?.SKILLOPT_DATA_ROOTS).toEqual(["/srv/data", "datasets", "/mnt/bench"]);
  });

  it("refuses a filesystem root, which would let the dashboard read every file", () => {
    const r = roots("/srv/data,/");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ["SKILLOPT_DATA_ROOTS", 1], message: expect.stringContaining("filesystem root") });
  });
});

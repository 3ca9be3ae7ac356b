import { describe, expect, it } from "vitest";
import { connectionState, STREAM_LABEL } from "./connection";

describe("run page connection state", () => {
  it("is never live while the server does not answer or the browser is offline", () => {
    expect(connectionState("live", { unreachable: true, offline: false })).toBe("reconnecting");
    expect(connectionState("live", { unreachable: false, offline: true })).toBe("reconnecting");
    expect(connectionState("connecting", { unreachable: true, offline: false })).toBe("reconnecting");
    expect(connectionState("live", { unreachable: false, offline: false })).toBe("live");
  });

  it("keeps a finished run's closed stream closed", () => {
    expect(connectionState("closed", { unreachable: true, offline: true })).toBe("closed");
  });

  it("says reconnecting in plain words", () => {
    expect(STREAM_LABEL.reconnecting.text).toBe("reconnecting…");
    expect(STREAM_LABEL.live.text).toBe("live");
  });
});

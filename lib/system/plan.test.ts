import { describe, expect, it } from "vitest";
import { optedOut, planInstall, type Facts } from "./index.mjs";

const facts = (f: Partial<Facts>): Facts => ({
  optOut: false,
  root: false,
  apt: true,
  sudo: false,
  sudoInstalled: true,
  ...f,
});

describe("planInstall", () => {
  it("nothing missing → nothing to do", () => {
    expect(planInstall([], facts({ root: true }))).toEqual({ kind: "none" });
  });

  it("root with apt-get installs directly; passwordless sudo installs through sudo", () => {
    expect(planInstall(["bubblewrap"], facts({ root: true }))).toEqual({
      kind: "install",
      via: "root",
      packages: ["bubblewrap"],
    });
    expect(planInstall(["bubblewrap"], facts({ sudo: true }))).toEqual({
      kind: "install",
      via: "sudo",
      packages: ["bubblewrap"],
    });
  });

  it("the opt-out wins over root, and the command has no sudo for root", () => {
    expect(planInstall(["chromium", "postgresql"], facts({ root: true, optOut: true }))).toEqual({
      kind: "manual",
      packages: ["chromium", "postgresql"],
      reason: "SKILLOPT_NO_AUTO_INSTALL is set",
      command: "apt-get install -y chromium postgresql",
    });
  });

  it("no apt-get, or no root and no passwordless sudo → a manual command with the reason", () => {
    expect(planInstall(["bubblewrap"], facts({ apt: false, root: true }))).toMatchObject({
      kind: "manual",
      reason: expect.stringMatching(/apt-get was not found/),
    });
    expect(planInstall(["bubblewrap"], facts({}))).toEqual({
      kind: "manual",
      packages: ["bubblewrap"],
      reason: "not running as root, and sudo asks for a password",
      command: "sudo apt-get install -y bubblewrap",
    });
    expect(planInstall(["bubblewrap"], facts({ sudoInstalled: false }))).toMatchObject({
      reason: "not running as root, and sudo is not installed",
    });
  });
});

describe("optedOut", () => {
  it("accepts 1, true and yes; anything else (or unset) keeps automatic installs on", () => {
    for (const v of ["1", "true", "YES", " 1 "]) expect(optedOut({ SKILLOPT_NO_AUTO_INSTALL: v })).toBe(true);
    for (const v of [undefined, "", "0", "false", "no"]) expect(optedOut({ SKILLOPT_NO_AUTO_INSTALL: v })).toBe(false);
  });
});

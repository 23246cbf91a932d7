import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensurePrivateDir } from "../../src/config/private-dir.ts";
import { expectGatehouseError } from "./settings-fixture.ts";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "gh-private-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (dir: string) => statSync(dir).mode & 0o777;

describe("ensurePrivateDir", () => {
  it("creates the home and each folder below it with mode 0700", () => {
    const home = join(root, "nested", "home");
    const dir = ensurePrivateDir(home, "audit", "logs");
    expect(dir).toBe(join(home, "audit", "logs"));
    for (const d of [home, join(home, "audit"), dir]) expect(mode(d)).toBe(0o700);
  });

  it("tightens a folder the user owns that others could read", () => {
    const home = join(root, "home");
    mkdirSync(join(home, "audit"), { recursive: true, mode: 0o755 });
    chmodSync(home, 0o755);
    chmodSync(join(home, "audit"), 0o750);
    ensurePrivateDir(home, "audit");
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, "audit"))).toBe(0o700);
  });

  it.each(["777", "1777", "775", "757"])(
    "refuses, without tightening, a folder others could write to (mode %s): what they put there would pass for the user's",
    (octal) => {
      const open = Number.parseInt(octal, 8);
      const home = join(root, "home");
      mkdirSync(join(home, "keys"), { recursive: true, mode: 0o700 });
      chmodSync(home, 0o700);
      chmodSync(join(home, "keys"), open);
      const error = expectGatehouseError(() => ensurePrivateDir(home, "keys"), "GH_STATE_DIR");
      expect(error.message).toContain(
        `${join(home, "keys")} is writable by other users (mode ${(open & 0o777).toString(8)}): what it holds may not be yours`,
      );
      expect(statSync(join(home, "keys")).mode & 0o7777).toBe(open);
    },
  );

  it("refuses a symbolic link anywhere in the chain, without following it", () => {
    const home = join(root, "home");
    const elsewhere = join(root, "elsewhere");
    mkdirSync(home);
    mkdirSync(elsewhere, { mode: 0o755 });
    symlinkSync(elsewhere, join(home, "audit"));
    expect(expectGatehouseError(() => ensurePrivateDir(home, "audit"), "GH_STATE_DIR").message).toMatch(
      /audit is a symbolic link/,
    );
    expect(mode(elsewhere)).toBe(0o755);
    const linkedHome = join(root, "linked-home");
    symlinkSync(elsewhere, linkedHome);
    expect(expectGatehouseError(() => ensurePrivateDir(linkedHome), "GH_STATE_DIR").message).toMatch(
      /linked-home is a symbolic link/,
    );
  });

  it("refuses a folder owned by another user (a planted home in a shared directory)", () => {
    // As root, plant the folder by giving it away; as anyone else, "/" is such a folder already.
    const uid = process.getuid?.() ?? 0;
    let planted = "/";
    if (uid === 0) {
      planted = join(root, "planted");
      mkdirSync(planted, { mode: 0o700 });
      chownSync(planted, 4242, 4242);
    }
    expect(expectGatehouseError(() => ensurePrivateDir(planted), "GH_STATE_DIR").message).toMatch(/is owned by uid/);
  });

  it("refuses a file where a folder should be", () => {
    const home = join(root, "home");
    mkdirSync(home);
    writeFileSync(join(home, "keys"), "");
    expect(expectGatehouseError(() => ensurePrivateDir(home, "keys"), "GH_STATE_DIR").message).toMatch(
      /keys is not a directory/,
    );
  });

  it("refuses segments that would leave the home", () => {
    for (const bad of ["..", ".", "", "a/b", "a\0b"]) {
      expect(expectGatehouseError(() => ensurePrivateDir(join(root, "home"), bad), "GH_STATE_DIR").message).toMatch(
        /not a valid name/,
      );
    }
  });
});

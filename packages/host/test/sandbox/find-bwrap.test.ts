import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BWRAP_DIRS, findBwrap } from "../../src/sandbox/find-bwrap.ts";
import { tempDir } from "../helpers/scenario.ts";

describe("which bwrap the host runs", () => {
  it("never a bwrap found through PATH (a workspace could plant one there)", () => {
    const planted = tempDir("gh-planted-");
    const fake = path.join(planted, "bwrap");
    writeFileSync(fake, `#!/bin/sh\ntouch ${planted}/ran\n`);
    chmodSync(fake, 0o755);
    const found = findBwrap({ PATH: `${planted}:${process.env.PATH ?? ""}` });
    if ("path" in found) expect(BWRAP_DIRS).toContain(path.dirname(found.path));
    else expect(found.missing).toContain("was not found in /usr/bin");
    expect(existsSync(path.join(planted, "ran"))).toBe(false);
    rmSync(planted, { recursive: true, force: true });
  });

  it("GATEHOUSE_BWRAP names it, and must be absolute", () => {
    expect(findBwrap({ GATEHOUSE_BWRAP: "/opt/bw/bin/bwrap" })).toEqual({ path: "/opt/bw/bin/bwrap" });
    expect(findBwrap({ GATEHOUSE_BWRAP: "bin/bwrap" })).toEqual({
      missing: 'GATEHOUSE_BWRAP must be an absolute path, not "bin/bwrap"',
    });
  });
});

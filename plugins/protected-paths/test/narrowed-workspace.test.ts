import { symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy, nodePolicyFs, type PolicyFs, type ProtectedPathsConfigInput } from "../src/index.ts";
import { createFixture, type Fixture, read, ruleOf, write } from "./helpers/fixture.ts";
import { createFoldingFs } from "./helpers/folding-fs.ts";

// A lower settings level may narrow `workspace`; that must only ever take permissions away. `./`
// rules stay anchored where they were written for (the project directory, every level's roots:
// `ruleAnchors`), and so does everything else the policy derives from the roots.

const SECRETS: ProtectedPathsConfigInput = { denyRead: ["./secrets/**"], denyWrite: ["./secrets/**"] };

function project(): Fixture {
  const f = createFixture();
  f.file("secrets/key", "SECRET");
  f.file("sub/a.txt");
  return f;
}

describe("a workspace narrowed below the project directory", () => {
  it("keeps ./ rules anchored at the project directory, for reads, writes and read filters", () => {
    const f = project();
    for (const workspace of [undefined, ["sub"], ["./sub", "src"]]) {
      const policy = f.policy({ ...SECRETS, ...(workspace ? { workspace } : {}) });
      for (const p of ["secrets/key", path.join(f.ws, "secrets/key"), "sub/../secrets/key", "secrets"]) {
        expect({ workspace, p, rule: ruleOf(policy.check(read(p))) }).toEqual({
          workspace,
          p,
          rule: "config denyRead ./secrets/**",
        });
      }
      expect(policy.readFilter()(path.join(f.ws, "secrets/key"))).toBe(false);
      // Still only where the rule says: the project's other files, and a `secrets` elsewhere, stay readable.
      expect(ruleOf(policy.check(read("docs/env.md")))).toBe("allow");
      expect(ruleOf(policy.check(read("docs/secrets/x")))).toBe("allow");
    }
    const writes = f.policy({ ...SECRETS, workspace: ["sub"], allowOutsideWorkspace: { write: true } });
    expect(ruleOf(writes.check(write("secrets/new")))).toBe("config denyWrite ./secrets/**");
    expect(ruleOf(writes.check(write("docs/new.md")))).toBe("allow");
  });

  it("any-depth defaults keep the project's .env out of reach, for the tools and in the read filter", () => {
    const f = project();
    const policy = f.policy({ workspace: ["sub"] });
    expect(ruleOf(policy.check(read(".env")))).toBe("default denyRead .env");
    expect(ruleOf(policy.check(read("sub/../.env")))).toBe("default denyRead .env");
    expect(policy.readFilter()(path.join(f.ws, ".env"))).toBe(false);
    expect(ruleOf(policy.check(write(".env")))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write("docs/new.md")))).toBe("outside workspace");
    const writable = f.policy({ workspace: ["sub"], allowOutsideWorkspace: { write: true } });
    expect(ruleOf(writable.check(write(".env")))).toBe("default denyWrite .env");
  });

  it("anchors ./ rules at every root listed in ruleAnchors (every settings level's workspace)", () => {
    const f = project();
    f.file(path.join(f.base, "vault/key"), "SECRET");
    // Managed settings said: the workspace is the folder above the project, and its `vault` is secret.
    const floor = { workspace: [f.base], denyRead: ["./vault/**"] };
    expect(ruleOf(f.policy(floor).check(read("../vault/key")))).toBe("config denyRead ./vault/**");
    // A lower level narrowed the workspace to the project: the rule stays where managed meant it.
    const narrowed = f.policy({ ...floor, workspace: ["."], ruleAnchors: [f.base] });
    expect(ruleOf(narrowed.check(read("../vault/key")))).toBe("config denyRead ./vault/**");
    expect(narrowed.readFilter()(path.join(f.base, "vault/key"))).toBe(false);
    // ...and only there: the project's own `vault` is not what managed protected.
    expect(ruleOf(narrowed.check(read("vault/x")))).toBe("config denyRead ./vault/**");
    expect(ruleOf(narrowed.check(read("src/app.ts")))).toBe("allow");
  });

  it("refuses a write that would replace the project directory (or a level's root) above the narrowed workspace", () => {
    const f = project();
    const policy = f.policy({ workspace: ["sub"], allowOutsideWorkspace: { write: true } });
    expect(ruleOf(policy.checkPath("write", f.ws, { through: true }))).toBe("workspace root");
    expect(ruleOf(policy.checkPath("write", "docs/new.md"))).toBe("allow");
    const anchored = f.policy({ workspace: ["sub"], allowOutsideWorkspace: { write: true }, ruleAnchors: [f.base] });
    expect(ruleOf(anchored.checkPath("write", f.base))).toBe("workspace root");
  });

  it("still protects git's core.hooksPath folder that the project's .git/config names", () => {
    const f = project();
    f.file(".git/config", "[core]\n\thooksPath = sub/hooks\n");
    const policy = f.policy({ workspace: ["sub"] });
    expect(ruleOf(policy.check(write("sub/hooks/pre-commit")))).toBe(
      `default denyWrite core.hooksPath ${path.join(f.ws, "sub/hooks")}`,
    );
    expect(ruleOf(policy.check(write("sub/other.txt")))).toBe("allow");
  });

  it("protects where a ./ rule's folder at the project directory really leads (a symbolic link)", () => {
    const f = project();
    f.file("vault/key", "SECRET");
    const policy = () => f.policy({ denyRead: ["./creds/**"], workspace: ["sub"] });
    expect(ruleOf(policy().check(read("vault/key")))).toBe("allow");
    symlinkSync("vault", path.join(f.ws, "creds"));
    expect(ruleOf(policy().check(read("vault/key")))).toBe("config denyRead ./creds/**");
    expect(policy().readFilter()(path.join(f.ws, "vault/key"))).toBe(false);
  });

  it("the sandbox masks what the rules deny in the project directory, outside the narrowed workspace", async () => {
    const f = project();
    const policy = createPolicy(
      { ...SECRETS, workspace: ["sub"] },
      { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh") },
    );
    const quarantine = f.dir(path.join(f.base, "quarantine"));
    const planned = await policy.sandboxProfile({ quarantineDir: () => quarantine }).prepare();
    expect(planned.layout.writable).toEqual([path.join(f.ws, "sub")]);
    expect(planned.layout.masked).toEqual(
      expect.arrayContaining([path.join(f.ws, ".env"), path.join(f.ws, "secrets")]),
    );
    expect(planned.layout.readOnly).toEqual(expect.arrayContaining([path.join(f.ws, "secrets")]));
    expect(await planned.review?.()).toEqual([]);
  });

  it('"auto" case folding folds when the project directory folds, whatever the narrowed root says', () => {
    const f = project();
    const sub = path.join(f.ws, "sub").toLowerCase();
    // The project's disk folds case; `sub` is a case-sensitive disk mounted inside it.
    const folding = createFoldingFs();
    const sensitive = (p: string) => p.toLowerCase() === sub || p.toLowerCase().startsWith(`${sub}/`);
    const fs: PolicyFs = {
      realpath: (p) => (sensitive(p) ? nodePolicyFs : folding).realpath(p),
      lstat: (p) => (sensitive(p) ? nodePolicyFs : folding).lstat(p),
      readlink: (p) => (sensitive(p) ? nodePolicyFs : folding).readlink(p),
      readdir: (p) => (sensitive(p) ? nodePolicyFs : folding).readdir(p),
    };
    const whole = createPolicy({}, { cwd: f.ws, home: f.home, fs });
    expect(whole.settings.caseInsensitive).toBe(true);
    const narrowed = createPolicy({ workspace: ["sub"] }, { cwd: f.ws, home: f.home, fs });
    expect(narrowed.settings.caseInsensitive).toBe(true);
  });
});

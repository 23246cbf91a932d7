import { mkdirSync, symlinkSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy } from "../src/index.ts";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture, read, ruleOf, write } from "./helpers/fixture.ts";

const linux = process.platform === "linux";

describe("the home directory however HOME spells it", () => {
  // HOME as the environment hands it over: `/.` at the end, doubled slashes, `..` steps.
  const spellings = (home: string) => [
    `${home}/.`,
    `${home}/`,
    `${home}//`,
    `${path.dirname(home)}//${path.basename(home)}`,
    `${home}/../${path.basename(home)}`,
    `${home}/./.`,
  ];

  it("anchors every ~/ rule at the normalised home: reads of ~/.ssh and ~/.aws stay refused", () => {
    const f = createFixture();
    f.file(path.join(f.home, ".ssh/id_rsa"));
    f.file(path.join(f.home, ".aws/credentials"));
    for (const home of spellings(f.home)) {
      const policy = createPolicy({}, { cwd: f.ws, home });
      expect(ruleOf(policy.check(read(path.join(f.home, ".ssh/id_rsa")))), home).toBe("default denyRead ~/.ssh/**");
      expect(ruleOf(policy.check(read("~/.aws/credentials"))), home).toBe("default denyRead ~/.aws/**");
      expect(ruleOf(policy.check(write("~/.gitconfig"))), home).toBe("default denyWrite ~/.gitconfig");
      expect(ruleOf(policy.check(read(path.join(f.home, "notes.txt")))), home).toBe("allow");
    }
  });

  it("anchors them at the real path too: HOME through a link and .. is where the kernel lands", async () => {
    const f = createFixture();
    // base/a/link -> base/b/c, so base/a/link/../home is base/b/home (not base/a/home).
    const real = path.join(f.base, "b/home");
    f.file(path.join(real, ".ssh/id_rsa"));
    mkdirSync(path.join(f.base, "b/c"), { recursive: true });
    mkdirSync(path.join(f.base, "a"), { recursive: true });
    symlinkSync(path.join(f.base, "b/c"), path.join(f.base, "a/link"));
    const policy = createPolicy({}, { cwd: f.ws, home: `${f.base}/a/link/../home` });
    expect(ruleOf(policy.check(read(path.join(real, ".ssh/id_rsa"))))).toBe("default denyRead ~/.ssh/**");
    const planned = await policy.sandboxProfile({ quarantineDir: () => path.join(f.base, "q") }).prepare();
    expect(planned.layout.masked).toContain(path.join(real, ".ssh"));
  });

  it("keeps every ~/ rule at the account's own home when HOME is elsewhere, and masks it in the sandbox", async () => {
    const f = createFixture();
    const account = path.join(f.base, "account");
    f.file(path.join(account, ".ssh/id_rsa"));
    f.file(path.join(account, ".aws/credentials"));
    const policy = createPolicy({}, { cwd: f.ws, home: f.home, accountHome: account });
    expect(ruleOf(policy.check(read(path.join(account, ".ssh/id_rsa"))))).toBe("default denyRead ~/.ssh/**");
    expect(ruleOf(policy.check(write(path.join(account, ".gitconfig"))))).toBe("default denyWrite ~/.gitconfig");
    expect(ruleOf(policy.check(read(path.join(account, "notes.txt"))))).toBe("allow");
    // `~` still means HOME.
    expect(ruleOf(policy.check(read("~/.ssh/id_rsa")))).toBe("default denyRead ~/.ssh/**");
    const planned = await policy.sandboxProfile({ quarantineDir: () => path.join(f.base, "q") }).prepare();
    expect(planned.layout.masked).toEqual(
      expect.arrayContaining([path.join(account, ".ssh"), path.join(account, ".aws")]),
    );
    // By default the account's home is the user database's, whatever HOME is.
    const byDefault = createPolicy({}, { cwd: f.ws, home: f.home });
    const own = userInfo().homedir;
    expect(ruleOf(byDefault.check(read(path.join(own, ".ssh/id_rsa"))))).toBe("default denyRead ~/.ssh/**");
  });

  it.skipIf(!linux)("gatehouse run with HOME set elsewhere still refuses the account's own credentials", async () => {
    const f = createFixture();
    const own = userInfo().homedir;
    const { ends, stderr } = await runCliScript({
      cwd: f.ws,
      scriptDir: f.base,
      env: { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") },
      turns: [
        [
          { id: "S", name: "read", args: { path: path.join(own, ".ssh/id_rsa") } },
          { id: "A", name: "read", args: { path: path.join(own, ".aws/credentials") } },
        ],
      ],
    });
    expect(ends.size, stderr).toBe(2);
    expect(ends.get("S")?.outcome).toBe("blocked");
    expect(ends.get("S")?.text).toContain("default denyRead ~/.ssh/**");
    expect(ends.get("A")?.outcome).toBe("blocked");
  });

  it.skipIf(!linux)(
    "gatehouse run with HOME ending in /. prints no secret of the home (read, grep, bash)",
    async () => {
      const f = createFixture();
      // A home the sandbox can see: the fixture's lies under /tmp, which is private there.
      const home = f.dir("user-home");
      f.file(path.join(home, ".ssh/id_rsa"), "SSHKEY_SECRET_123\n");
      f.file(path.join(home, ".aws/credentials"), "AWS_SECRET_456\n");
      const gh = path.join(f.base, "gh");
      const { ends, stderr } = await runCliScript({
        cwd: f.ws,
        scriptDir: f.base,
        env: { HOME: `${home}/.`, GATEHOUSE_HOME: gh },
        turns: [
          [
            { id: "R", name: "read", args: { path: "~/.ssh/id_rsa" } },
            { id: "G", name: "grep", args: { pattern: "SECRET", path: `${home}/./.aws` } },
            // Names through variables: the sandbox (not the analysis) must keep them out of sight.
            {
              id: "B",
              name: "bash",
              args: { command: "D=.; cat ~/$D'ssh/id_rsa' $HOME/$D'aws/credentials'; echo done" },
            },
          ],
        ],
      });
      expect(ends.size, stderr).toBe(3);
      for (const [id, end] of ends) {
        expect(end.text, id).not.toMatch(/SSHKEY_SECRET_123|AWS_SECRET_456/);
      }
      expect(ends.get("R")?.outcome).toBe("blocked");
      expect(ends.get("B")?.text).toContain("done");
    },
  );
});

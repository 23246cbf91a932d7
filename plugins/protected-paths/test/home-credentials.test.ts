import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture, read } from "./helpers/fixture.ts";

const linux = process.platform === "linux";

/** Where well-known tools keep tokens and passwords in the home directory, and shells their histories. */
const STORES = [
  ".claude.json",
  ".gemini/oauth_creds.json",
  ".config/github-copilot/apps.json",
  ".yarnrc.yml",
  ".config/containers/auth.json",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  ".composer/auth.json",
  ".bundle/config",
  ".nuget/NuGet/NuGet.Config",
  ".pulumi/credentials.json",
  ".oci/config",
  ".databrickscfg",
  ".config/doctl/config.yaml",
  ".fly/config.yml",
  ".config/glab-cli/config.yml",
  ".cache/huggingface/token",
  ".local/share/fish/fish_history",
  ".histfile",
];

describe("the home's credential stores", () => {
  it("are denied for reads, and masked in the sandbox", async () => {
    const f = createFixture();
    for (const rel of STORES) f.file(path.join(f.home, rel), "TOKEN");
    const policy = f.policy();
    for (const rel of STORES) {
      const decision = policy.check(read(path.join(f.home, rel)));
      expect(decision.allow, rel).toBe(false);
    }
    expect(policy.check(read(path.join(f.home, ".m2/repository/x.jar"))).allow).toBe(true);
    const planned = await policy.sandboxProfile({ quarantineDir: () => path.join(f.base, "q") }).prepare();
    const masked = planned.layout.masked;
    for (const rel of STORES) {
      const p = path.join(f.home, rel);
      expect(
        masked.some((m) => p === m || p.startsWith(`${m}/`)),
        rel,
      ).toBe(true);
    }
  });

  it.skipIf(!linux)("a sandboxed command prints none of them", async () => {
    const f = createFixture();
    // A home the sandbox can see: the fixture's lies under /tmp, which is private there.
    const home = f.dir("user-home");
    for (const [i, rel] of STORES.entries()) f.file(path.join(home, rel), `STORE_SECRET_${i}_\n`);
    const names = STORES.map((rel) => `"$H/${rel}"`).join(" ");
    const { ends, stderr } = await runCliScript({
      cwd: f.ws,
      scriptDir: f.base,
      env: { HOME: home, GATEHOUSE_HOME: path.join(f.base, "gh") },
      // Through a variable: the sandbox, not the analysis, must keep them out of sight.
      turns: [[{ id: "B", name: "bash", args: { command: `H=~; cat ${names} 2>/dev/null; echo done` } }]],
    });
    const text = ends.get("B")?.text ?? "";
    expect(text, stderr).toContain("done");
    expect(text).not.toMatch(/STORE_SECRET_/);
  });
});

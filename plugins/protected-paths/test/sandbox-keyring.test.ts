import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture } from "./helpers/fixture.ts";

/** add_key, request_key, keyctl on the architectures the test knows (perl's `syscall` takes numbers). */
const KEY_CALLS: Record<string, [number, number, number]> = { x64: [248, 249, 250], arm64: [217, 218, 219] };
const calls = KEY_CALLS[process.arch];
const perl = spawnSync("perl", ["-e", "1"]).status === 0;

describe.skipIf(process.platform !== "linux" || !calls || !perl)("the sandbox and the kernel keyrings", () => {
  it("a sandboxed command cannot read a key of the session that started gatehouse", async () => {
    const [addKey, requestKey, keyctl] = calls ?? [0, 0, 0];
    const f = createFixture();
    // The launcher joins a fresh session keyring (KEYCTL_JOIN_SESSION_KEYRING), puts a key in it
    // (what a Kerberos KEYRING: cache or a credential helper leaves there), then runs the CLI.
    const launcher = [
      "perl",
      "-e",
      `syscall(${keyctl}, 1, 0) >= 0 or die "join: $!"; my ($t, $d, $v) = ("user", "gh-test", "KEYRING_SECRET_789");` +
        ` syscall(${addKey}, $t, $d, $v, length($v), -3) >= 0 or die "add_key: $!"; exec @ARGV or die "exec: $!"`,
    ];
    // The command looks the key up in its session keyring and prints it (KEYCTL_READ).
    const read =
      `perl -e 'my ($t, $d) = ("user", "gh-test"); my $id = syscall(${requestKey}, $t, $d, 0, 0);` +
      ` my $b = "\\0" x 64; my $n = syscall(${keyctl}, 11, $id, $b, 64); print $n > 0 ? substr($b, 0, $n) : "no key: $!"'; echo; echo done`;
    const { ends, stderr } = await runCliScript({
      cwd: f.ws,
      scriptDir: f.base,
      env: { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") },
      launcher,
      turns: [[{ id: "K", name: "bash", args: { command: read } }]],
    });
    const end = ends.get("K");
    expect(end?.text, stderr).toContain("done");
    expect(end?.text).toContain("no key");
    expect(end?.text).not.toContain("KEYRING_SECRET_789");
  });
});

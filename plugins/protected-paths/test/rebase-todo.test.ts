import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliScript } from "./helpers/cli-run.ts";
import { createFixture } from "./helpers/fixture.ts";

const linux = process.platform === "linux";

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A command that leaves an interactive rebase in progress whose todo holds `todo`. */
function plant(todo: string): string {
  const state = [
    "G=.git/rebase-merge; H=$(git rev-parse HEAD); mkdir $G",
    "git symbolic-ref HEAD > $G/head-name",
    "echo $H > $G/onto",
    "echo $H > $G/orig-head",
    ": > $G/interactive",
    ": > $G/done",
    `printf '${todo}\\n' > $G/git-rebase-todo`,
    "echo planted",
  ];
  return state.join(" && ");
}

describe.skipIf(!linux)("a rebase todo a sandboxed command leaves behind", () => {
  it("is taken out when it holds exec lines, which the next git rebase --continue would run on the host", async () => {
    const f = createFixture();
    rmSync(path.join(f.ws, ".git"), { recursive: true, force: true });
    git(f.ws, "init", "-q");
    git(f.ws, "add", "src");
    git(f.ws, "commit", "-qm", "init");
    const marker = path.join(f.base, "rebase-ran");
    const todo = path.join(f.ws, ".git/rebase-merge/git-rebase-todo");
    const { ends, stderr } = await runCliScript({
      cwd: f.ws,
      scriptDir: f.base,
      env: { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") },
      turns: [
        [{ id: "X", name: "bash", args: { command: plant(`pick $H x\\nx touch ${marker}`) } }],
        [{ id: "P", name: "bash", args: { command: `rm -r .git/rebase-merge && ${plant("pick $H x")}` } }],
      ],
    });
    expect(ends.get("X")?.outcome, stderr).toBe("blocked");
    expect(ends.get("X")?.text).toContain("exec lines");
    // A todo without exec lines (a rebase stopped at a conflict) stays for the next call.
    expect(ends.get("P")?.outcome, ends.get("P")?.text).toBe("executed");
    expect(existsSync(todo)).toBe(true);
    spawnSync("git", ["rebase", "--continue"], { cwd: f.ws, encoding: "utf8" });
    expect(existsSync(marker)).toBe(false);
  });
});

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** The fixture's workspace as a repository of its own with one commit of `src`. */
function freshRepository(): ReturnType<typeof createFixture> {
  const f = createFixture();
  rmSync(path.join(f.ws, ".git"), { recursive: true, force: true });
  git(f.ws, "init", "-q");
  git(f.ws, "add", "src");
  git(f.ws, "commit", "-qm", "init");
  return f;
}

/** Runs the scripted turns through `gatehouse run` in the workspace, with the fixture's home. */
function runIn(f: ReturnType<typeof createFixture>, turns: Parameters<typeof runCliScript>[0]["turns"]) {
  return runCliScript({
    cwd: f.ws,
    scriptDir: f.base,
    env: { HOME: f.home, GATEHOUSE_HOME: path.join(f.base, "gh") },
    turns,
  });
}

describe.skipIf(!linux)("git sequencer state a sandboxed command leaves behind", () => {
  it("is taken out when it holds exec lines, which the next git rebase --continue would run on the host", async () => {
    const f = freshRepository();
    const marker = path.join(f.base, "rebase-ran");
    const todo = path.join(f.ws, ".git/rebase-merge/git-rebase-todo");
    const { ends, stderr } = await runIn(f, [
      [{ id: "X", name: "bash", args: { command: plant(`pick $H x\\nx touch ${marker}`) } }],
      [{ id: "P", name: "bash", args: { command: `rm -r .git/rebase-merge && ${plant("pick $H x")}` } }],
    ]);
    expect(ends.get("X")?.outcome, stderr).toBe("blocked");
    expect(ends.get("X")?.text).toContain("exec lines");
    // A todo without exec lines (a rebase stopped at a conflict) stays for the next call.
    expect(ends.get("P")?.outcome, ends.get("P")?.text).toBe("executed");
    expect(existsSync(todo)).toBe(true);
    spawnSync("git", ["rebase", "--continue"], { cwd: f.ws, encoding: "utf8" });
    expect(existsSync(marker)).toBe(false);
  });

  /** A program the strategy `../evil` makes git run from the worktree (`./git-merge-../evil`). */
  const evil = (marker: string) =>
    `mkdir -p git-merge-.. && printf '#!/bin/sh\\ntouch ${marker}\\nexit 1\\n' > git-merge-../evil && chmod +x git-merge-../evil`;

  it("is taken out when a rebase's strategy is not git's own (git-merge-<name> runs on the host at --continue)", async () => {
    const f = createFixture();
    rmSync(path.join(f.ws, ".git"), { recursive: true, force: true });
    git(f.ws, "init", "-q");
    for (const n of ["1", "2", "3"]) {
      writeFileSync(path.join(f.ws, `f${n}`), n);
      git(f.ws, "add", `f${n}`);
      git(f.ws, "commit", "-qm", `c${n}`);
    }
    const marker = path.join(f.base, "strategy-ran");
    const strategy = path.join(f.ws, ".git/rebase-merge/strategy");
    // A real rebase stopped at an edit, its commit amended so the next pick needs a merge.
    const stop = `GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git -c user.email=a@b -c user.name=a rebase -i HEAD~2 && git -c user.email=a@b -c user.name=a commit -q --amend -m c2b`;
    const { ends, stderr } = await runIn(f, [
      [
        {
          id: "S",
          name: "bash",
          args: { command: `${stop} && ${evil(marker)} && echo ../evil > .git/rebase-merge/strategy` },
        },
      ],
      [{ id: "O", name: "bash", args: { command: "echo ort > .git/rebase-merge/strategy" } }],
    ]);
    expect(ends.get("S")?.outcome, stderr).toBe("blocked");
    expect(ends.get("S")?.text).toMatch(/merge strategy that is not one of git's own/);
    // git's own strategy stays for the rebase to go on.
    expect(ends.get("O")?.outcome, ends.get("O")?.text).toBe("executed");
    expect(readFileSync(strategy, "utf8")).toBe("ort\n");
    spawnSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "rebase", "--continue"], {
      cwd: f.ws,
      encoding: "utf8",
      env: { ...process.env, GIT_EDITOR: "true" },
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("is taken out when a cherry-pick's options name a strategy that is not git's own", async () => {
    const f = freshRepository();
    const marker = path.join(f.base, "opts-ran");
    const { ends, stderr } = await runIn(f, [
      [
        {
          id: "C",
          name: "bash",
          args: {
            command: `${evil(marker)} && mkdir .git/sequencer && git rev-parse HEAD > .git/sequencer/head && printf '[options] strategy = ../evil\\n' > .git/sequencer/opts`,
          },
        },
      ],
      [
        {
          id: "K",
          name: "bash",
          args: {
            command: "printf '[options]\\n\\tstrategy = ort\\n\\tstrategy-option = theirs\\n' > .git/sequencer/opts",
          },
        },
      ],
    ]);
    expect(ends.get("C")?.outcome, stderr).toBe("blocked");
    expect(ends.get("C")?.text).toMatch(/cherry-pick --continue/);
    expect(existsSync(path.join(f.ws, ".git/sequencer/opts"))).toBe(true);
    expect(ends.get("K")?.outcome, ends.get("K")?.text).toBe("executed");
  });
});

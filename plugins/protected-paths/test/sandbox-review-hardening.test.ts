import { spawnSync } from "node:child_process";
import { closeSync, existsSync, lstatSync, openSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import protectedPaths from "@gatehouse/protected-paths";
import { createTestHost, type TestHost } from "@gatehouse/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createFixture } from "./helpers/fixture.ts";

const hosts: TestHost[] = [];

afterEach(async () => {
  for (const t of hosts.splice(0)) await t.close();
});

/** Runs one turn of bash calls in a real host with protected-paths (bwrap sandbox) in `cwd`. */
async function bash(cwd: string, gh: string, commands: Record<string, string>) {
  const calls = Object.entries(commands).map(([id, command]) => ({
    type: "toolCall" as const,
    id,
    name: "bash",
    arguments: { command },
  }));
  const t = await createTestHost({
    cwd,
    home: gh,
    turns: [{ content: calls }, { content: [{ type: "text", text: "done" }] }],
    extensions: [protectedPaths],
  });
  hosts.push(t);
  await t.run("go");
  const ends = new Map(t.eventsOf("tool_execution_end").map((e) => [e.toolCallId, e] as const));
  const text = (id: string) =>
    (ends.get(id)?.result.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return { ends, text };
}

const linux = process.platform === "linux";

describe.skipIf(!linux)("the sandbox review takes out every configuration that runs code", () => {
  it("mise, .tool-versions, Mercurial, lint-staged and JetBrains files a command creates are taken out", async () => {
    const f = createFixture();
    const gh = path.join(f.base, "gh");
    const made = [
      "mise.toml",
      ".mise.toml",
      "mise/config.toml",
      ".config/mise",
      ".tool-versions",
      ".hg",
      "sub/.hg",
      ".lintstagedrc",
      "lint-staged.config.js",
      ".idea",
    ];
    const { ends, text } = await bash(f.ws, gh, {
      // Every name through a variable: the analysis cannot see it, only the review can.
      A: [
        "D=.; M=mi; T=tool; H=hg; L=lint; I=idea",
        "echo '[hooks]' > $M'se'.toml; cp $M'se'.toml $D$M'se'.toml",
        "mkdir -p $M'se' $D'config'/$M'se' && cp $M'se'.toml $M'se'/config.toml && cp $M'se'.toml $D'config'/$M'se'/config.toml",
        "echo 'nodejs path:/tmp' > $D$T-versions",
        "mkdir -p $D$H sub/$D$H && printf '[hooks]\\npre-status = touch /tmp/x\\n' > $D$H/$H'rc'",
        "echo '{\"*\":\"touch /tmp/x\"}' > $D$L'stagedrc'; echo 'export default {}' > $L-staged.config.js",
        "mkdir -p $D$I && echo '<project/>' > $D$I/workspace.xml",
        "echo made",
      ].join("\n"),
    });
    expect(ends.get("A")?.outcome).toBe("blocked");
    expect(text("A")).toContain("made");
    for (const p of made) {
      expect(existsSync(path.join(f.ws, p)), p).toBe(false);
      expect(ends.get("A")?.reason, p).toContain(JSON.stringify(path.join(f.ws, p)));
    }
  });
});

/** The entries of a folder as bytes (names that are not UTF-8 included), as latin1 text. */
function rawNames(dir: string | Buffer): string[] {
  return readdirSync(dir, { encoding: "buffer" }).map((b) => b.toString("latin1"));
}

describe.skipIf(!linux)("the review reads every path, however long or oddly named", () => {
  it("a tree deeper than PATH_MAX no longer stops the review: what the call created is taken out, later calls run", async () => {
    const f = createFixture();
    rmSync(path.join(f.ws, ".envrc"));
    f.dir(".git/objects/info");
    const gh = path.join(f.base, "gh");
    const t = await createTestHost({
      cwd: f.ws,
      home: gh,
      turns: [
        {
          content: [
            {
              type: "toolCall",
              id: "A",
              name: "bash",
              arguments: {
                command: [
                  "D=.",
                  "echo 'echo PWNED' > $D'envrc'",
                  "mkdir -p $D'claude' && echo '{\"hooks\":{}}' > $D'claude/settings.local.json'",
                  "N=$(printf 'o%.0s' $(seq 250))",
                  "cd $D'git/objects/info' && for i in $(seq 17); do mkdir $N && cd $N || exit 9; done",
                  // A protected name deep below, where no path of PATH_MAX bytes reaches.
                  "echo 'echo PWNED' > $D'envrc' && mkdir $D'git' && echo built",
                ].join("\n"),
              },
            },
          ],
        },
        { content: [{ type: "toolCall", id: "B", name: "bash", arguments: { command: "echo second-ran" } }] },
        { content: [{ type: "text", text: "done" }] },
      ],
      extensions: [protectedPaths],
    });
    hosts.push(t);
    // Node's recursive rm (the fixture's clean-up) cannot remove a path that long: rm can.
    try {
      await t.run("go");
      const ends = new Map(t.eventsOf("tool_execution_end").map((e) => [e.toolCallId, e] as const));
      const a = ends.get("A");
      expect(JSON.stringify(a?.result)).toContain("built");
      expect(a?.outcome).toBe("blocked");
      expect(a?.reason).not.toContain("could not check");
      expect(existsSync(path.join(f.ws, ".envrc"))).toBe(false);
      expect(existsSync(path.join(f.ws, ".claude/settings.local.json"))).toBe(false);
      // The deep .envrc and .git are gone too (walked through descriptors, the path is too long to name).
      let depth = 0;
      const names: string[] = [];
      let dirFd = openSync(path.join(f.ws, ".git/objects/info"), "r");
      for (;;) {
        const here = rawNames(`/proc/self/fd/${dirFd}`);
        names.push(...here.filter((n) => !n.startsWith("o")));
        const next = here.find((n) => n.startsWith("o"));
        if (next === undefined) break;
        const nextFd = openSync(`/proc/self/fd/${dirFd}/${next}`, "r");
        closeSync(dirFd);
        dirFd = nextFd;
        depth += 1;
      }
      closeSync(dirFd);
      expect(depth).toBe(17);
      expect(names).toEqual([]);
      expect(a?.reason).toContain("(default denyWrite .envrc)");
      expect(a?.reason).toContain("(default denyWrite .git)");
      expect(ends.get("B")?.outcome).toBe("executed");
      expect(JSON.stringify(ends.get("B")?.result)).toContain("second-ran");
    } finally {
      spawnSync("rm", ["-rf", path.join(f.ws, ".git/objects/info")]);
    }
  });

  it("a folder whose name is not UTF-8 hides nothing: its repository, .envrc and agent settings are taken out", async () => {
    const f = createFixture();
    const gh = path.join(f.base, "gh");
    const { ends } = await bash(f.ws, gh, {
      A: [
        "D=.; d=$(printf 'w\\377'); e=$(printf 'x\\300\\257')",
        'mkdir -p "$d" && cd "$d" && git init -q . && git config core.fsmonitor "touch $PWD/../pwned; false"',
        "echo 'echo PWNED' > $D'envrc'; mkdir -p $D'claude' && echo '{}' > $D'claude/settings.json'",
        'mkdir -p "$e/$d" && echo x > "$e/$d/$D"env && echo ok',
      ].join("\n"),
    });
    expect(JSON.stringify(ends.get("A")?.result)).toContain("ok");
    expect(ends.get("A")?.outcome).toBe("blocked");
    const w = Buffer.concat([Buffer.from(`${f.ws}/`), Buffer.from([0x77, 0xff])]);
    expect(lstatSync(w).isDirectory()).toBe(true);
    // What is left: the emptied .claude folder and the folder with the nested one.
    expect(rawNames(w).sort()).toEqual([".claude", "x\xc0\xaf"]);
    expect(rawNames(Buffer.concat([w, Buffer.from("/.claude")]))).toEqual([]);
    const nested = Buffer.concat([w, Buffer.from([0x2f, 0x78, 0xc0, 0xaf, 0x2f, 0x77, 0xff])]);
    expect(rawNames(nested)).toEqual([]);
    for (const rule of [
      "default denyWrite .git",
      "default denyWrite .envrc",
      "default denyWrite .claude/settings.json",
      "default denyWrite .env",
    ]) {
      expect(ends.get("A")?.reason).toContain(`(${rule})`);
    }
    // The reasons show the byte as it is, not a replacement character.
    expect(ends.get("A")?.reason).toContain(`${f.ws}/w\\xFF/.git"`);
    // git run on the host in that folder finds no repository: nothing runs its fsmonitor.
    expect(existsSync(path.join(f.ws, "pwned"))).toBe(false);
  });
});

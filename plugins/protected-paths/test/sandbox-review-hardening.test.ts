import { existsSync } from "node:fs";
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

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings, mergeSettings } from "../../src/config/index.ts";
import { tempDir } from "../helpers/scenario.ts";

function levels(files: { managed?: object; project?: object; local?: object; user?: object }) {
  const cwd = tempDir("gh-hook-settings-");
  const home = tempDir("gh-hook-settings-home-");
  mkdirSync(join(cwd, ".gatehouse"));
  const env: NodeJS.ProcessEnv = { GATEHOUSE_HOME: home };
  if (files.managed) {
    const managed = join(tempDir("gh-managed-"), "managed.json");
    writeFileSync(managed, JSON.stringify(files.managed));
    env.GATEHOUSE_MANAGED_SETTINGS = managed;
  }
  if (files.project) writeFileSync(join(cwd, ".gatehouse", "settings.json"), JSON.stringify(files.project));
  if (files.local) writeFileSync(join(cwd, ".gatehouse", "settings.local.json"), JSON.stringify(files.local));
  if (files.user) writeFileSync(join(home, "settings.json"), JSON.stringify(files.user));
  return () => mergeSettings(loadSettings({ cwd, env, home }));
}

const group = (command: string) => ({ matcher: "Bash", hooks: [{ type: "command", command }] });

describe("hooks and agentHooks settings", () => {
  it("lower levels only add hooks below managed settings' hooks", () => {
    const merged = levels({
      managed: { hooks: { PreToolUse: [group("managed-check")] } },
      project: { hooks: { PreToolUse: [group("project-check")], PostToolUse: [group("fmt")] } },
      user: { hooks: { PreToolUse: [] } },
    })();
    expect(merged.hooks.PreToolUse.map((g) => [g.level, g.hooks[0]?.command])).toEqual([
      ["managed", "managed-check"],
      ["project", "project-check"],
    ]);
    expect(merged.hooks.PostToolUse).toHaveLength(1);
  });

  it("agentHooks.bash only tightens, and every level's mappings of a tool add up", () => {
    const merged = levels({
      managed: { agentHooks: { bash: "deny", tools: { mcp__fs__write: { write: ["path"] } } } },
      project: {
        agentHooks: {
          bash: "analyze",
          tools: { mcp__fs__write: { read: ["path"] }, mcp__db__query: { read: ["file"] } },
        },
      },
    })();
    expect(merged.agentHooks).toEqual({
      bash: "deny",
      tools: { mcp__fs__write: { write: ["path"], read: ["path"] }, mcp__db__query: { read: ["file"] } },
    });
  });

  it("managed settings floor agentHooks.bash even when they leave it unset; without them a project may choose", () => {
    const analyze = { agentHooks: { bash: "analyze" } };
    expect(levels({ managed: { extensions: [] }, project: analyze })().agentHooks.bash).toBe("strict");
    expect(levels({ project: analyze })().agentHooks.bash).toBe("analyze");
    expect(levels({ project: {} })().agentHooks.bash).toBeUndefined();
  });

  it("rejects an event Gatehouse does not run, a hook that is not a command and a bad matcher, naming the field", () => {
    expect(levels({ project: { hooks: { Stop: [group("x")] } } })).toThrow(/hooks/);
    expect(levels({ project: { hooks: { PreToolUse: [{ hooks: [{ type: "prompt", command: "x" }] }] } } })).toThrow(
      /type/,
    );
    expect(
      levels({ project: { hooks: { PreToolUse: [{ matcher: "(", hooks: [{ type: "command", command: "x" }] }] } } }),
    ).toThrow(/regular expression/);
  });

  it('accepts the matcher "*" the README and Claude Code document for every tool (it is no regular expression)', () => {
    const every = { matcher: "*", hooks: [{ type: "command", command: "x" }] };
    expect(levels({ project: { hooks: { PreToolUse: [every] } } })().hooks.PreToolUse[0]?.matcher).toBe("*");
  });
});

import { homedir } from "node:os";
import { join } from "node:path";
import { NEVER_VERBATIM, toolAuditConfigSchema } from "@gatehouse/tool-audit";
import { describe, expect, it } from "vitest";
import { mapAgentCall, SHELL_COMMAND_KEYS, SHELL_TOOLS } from "../../src/hook/agent-tools.ts";
import { patchTargets } from "../../src/hook/apply-patch.ts";
import { type HookAgent, parseHookPayload } from "../../src/hook/hook-payload.ts";
import { recorded } from "./payloads.ts";

const P = "/work/app";

function map(agent: HookAgent, name: string, settings = {}) {
  const payload = parseHookPayload(JSON.stringify(recorded(agent, name, P)), agent);
  return mapAgentCall(payload, settings, P);
}

describe("mapping Claude Code's tools onto effects", () => {
  it("maps every file tool's path argument, as the agent gave it", () => {
    expect(map("claude-code", "Read")).toEqual({
      effects: [{ kind: "read", path: `${P}/src/index.ts` }],
      kind: "file",
    });
    expect(map("claude-code", "Write").effects).toEqual([{ kind: "write", path: `${P}/notes/todo.md` }]);
    const edited = (path: string) => [
      { kind: "write", path },
      { kind: "read", path },
    ];
    expect(map("claude-code", "Edit").effects).toEqual(edited(`${P}/src/index.ts`));
    expect(map("claude-code", "MultiEdit").effects).toEqual(edited(`${P}/src/index.ts`));
    expect(map("claude-code", "NotebookEdit").effects).toEqual(edited(`${P}/analysis.ipynb`));
  });

  it("reads the searched folder of Glob and Grep (the cwd when no path is given)", () => {
    expect(map("claude-code", "Glob").effects).toEqual([{ kind: "read", path: P }]);
    expect(map("claude-code", "Grep").effects).toEqual([{ kind: "read", path: `${P}/src` }]);
  });

  it("resolves relative and climbing paths against the agent's cwd, and ~ against the home directory", () => {
    const at = (file_path: string, cwd = P) =>
      mapAgentCall(
        parseHookPayload(
          JSON.stringify({ ...recorded("claude-code", "Write", P), cwd, tool_input: { file_path, content: "x" } }),
          "claude-code",
        ),
        {},
        P,
      ).effects[0];
    expect(at("../other/.env", "/elsewhere/sub")).toEqual({ kind: "write", path: "/elsewhere/other/.env" });
    expect(at("src/../.env")).toEqual({ kind: "write", path: `${P}/.env` });
    expect(at("~/.bashrc")).toEqual({ kind: "write", path: join(homedir(), ".bashrc") });
  });

  it("checks where an absolute or climbing Glob pattern starts, not only the cwd", () => {
    const payload = parseHookPayload(
      JSON.stringify({ ...recorded("claude-code", "Glob", P), tool_input: { pattern: "../../home/dev/.ssh/*" } }),
      "claude-code",
    );
    expect(mapAgentCall(payload, {}, P).effects).toContainEqual({ kind: "read", path: "/home/dev/.ssh" });
    const home = parseHookPayload(
      JSON.stringify({ ...recorded("claude-code", "Glob", P), tool_input: { pattern: "~/.aws/*" } }),
      "claude-code",
    );
    expect(mapAgentCall(home, {}, P).effects).toContainEqual({ kind: "read", path: join(homedir(), ".aws") });
  });

  it("refuses a Glob pattern that may climb after a wildcard, brace or bracket (its start does not show it)", () => {
    const glob = (pattern: string) => () =>
      mapAgentCall(
        parseHookPayload(
          JSON.stringify({ ...recorded("claude-code", "Glob", P), tool_input: { pattern } }),
          "claude-code",
        ),
        {},
        P,
      );
    for (const pattern of ["s*/../../home/.ssh/*", "{..,x}/home/.ssh/*", "[.][.]/home/.ssh/*", "src/*/../../../x"]) {
      expect(glob(pattern), pattern).toThrow(/may climb out of its folder/);
    }
    for (const pattern of ["src/**/*.ts", "**/*.{ts,tsx}", "docs/[a-z]*.md", "*.md"]) {
      expect(glob(pattern), pattern).not.toThrow();
    }
  });

  it("hands Bash commands to the analyzer as exec effects", () => {
    expect(map("claude-code", "Bash")).toEqual({ effects: [{ kind: "exec", command: "npm test" }], kind: "shell" });
  });

  it("runs a command from the agent's cwd when it is not the project", () => {
    const payload = parseHookPayload(
      JSON.stringify({ ...recorded("claude-code", "Bash", P), cwd: `${P}/sub dir` }),
      "claude-code",
    );
    expect(mapAgentCall(payload, {}, P).effects).toEqual([{ kind: "exec", command: `cd '${P}/sub dir' && npm test` }]);
  });

  it("gives MCP tools no path effects unless agentHooks.tools maps them", () => {
    expect(map("claude-code", "mcp")).toEqual({ effects: [], kind: "unmapped" });
    const settings = { tools: { mcp__filesystem__write_file: { write: ["path"] } } };
    expect(map("claude-code", "mcp", settings)).toEqual({
      effects: [{ kind: "write", path: `${P}/.env` }],
      kind: "mapped",
    });
  });

  it("refuses a Windows path on a POSIX host instead of reading it as a relative file name", () => {
    expect(() => map("claude-code", "WindowsWrite")).toThrow(/Windows path/);
  });

  it("refuses a path with white space at its start or end (Claude Code trims it, and would open another file)", () => {
    for (const [tool, field] of [
      ["Write", "file_path"],
      ["Edit", "file_path"],
      ["Read", "file_path"],
      ["NotebookEdit", "notebook_path"],
      ["Grep", "path"],
    ] as const) {
      const payload = parseHookPayload(
        JSON.stringify({
          ...recorded("claude-code", "Write", P),
          tool_name: tool,
          tool_input: { [field]: `${P}/.git/config ` },
        }),
        "claude-code",
      );
      expect(() => mapAgentCall(payload, {}, P), tool).toThrow(/white space/);
    }
  });

  it("refuses a file tool whose path is not a string", () => {
    const payload = parseHookPayload(
      JSON.stringify({ ...recorded("claude-code", "Write", P), tool_input: { file_path: ["/x"], content: "" } }),
      "claude-code",
    );
    expect(() => mapAgentCall(payload, {}, P)).toThrow(/Write.file_path must be a non-empty string/);
  });
});

describe("mapping Codex's tools onto effects", () => {
  it("maps Bash in its string and argv forms", () => {
    expect(map("codex", "Bash").effects).toEqual([{ kind: "exec", command: "cargo test --quiet" }]);
    expect(map("codex", "BashArgv").effects).toEqual([{ kind: "exec", command: "bash -lc 'echo X=1 > .env'" }]);
  });

  it("writes every file an apply_patch envelope adds, updates, deletes or moves to, and reads what it updates", () => {
    expect(map("codex", "PatchAdd").effects).toEqual([
      { kind: "write", path: `${P}/src/new.rs` },
      { kind: "write", path: `${P}/src/lib.rs` },
      { kind: "read", path: `${P}/src/lib.rs` },
    ]);
    expect(map("codex", "PatchMoveToEnv").effects).toEqual([
      { kind: "write", path: `${P}/config.example` },
      { kind: "read", path: `${P}/config.example` },
      { kind: "write", path: `${P}/.env` },
    ]);
    expect(map("codex", "PatchDeleteHook").effects).toEqual([{ kind: "write", path: `${P}/.git/hooks/pre-commit` }]);
  });

  it("checks a patch applied through the shell like the apply_patch tool", () => {
    const command = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .envrc\n+x\n*** End Patch\nEOF";
    const payload = parseHookPayload(
      JSON.stringify({ ...recorded("codex", "Bash", P), tool_input: { command } }),
      "codex",
    );
    expect(mapAgentCall(payload, {}, P).effects).toContainEqual({ kind: "write", path: `${P}/.envrc` });
  });

  it("runs a shell call in the workdir the model chose, not the session's cwd", () => {
    const payload = parseHookPayload(
      JSON.stringify({
        ...recorded("codex", "Bash", P),
        tool_input: { command: ["bash", "-lc", "echo x > hooks/pre-commit"], workdir: ".git" },
      }),
      "codex",
    );
    expect(mapAgentCall(payload, {}, P).effects).toEqual([
      { kind: "exec", command: `cd '${P}/.git' && bash -lc 'echo x > hooks/pre-commit'` },
    ]);
  });

  it("decides a shell call that only applies a patch by its files; anything more also runs as a command", () => {
    const shell = (command: unknown) =>
      mapAgentCall(
        parseHookPayload(JSON.stringify({ ...recorded("codex", "Bash", P), tool_input: { command } }), "codex"),
        {},
        P,
      );
    const patch = "*** Begin Patch\r\n*** Update File: a.txt\r\n*** Move to: ../b/c.txt\r\n@@\n-x\n+y\n*** End Patch";
    expect(shell(`apply_patch <<'EOF'\n${patch}\nEOF\n`)).toEqual({
      effects: [
        { kind: "write", path: `${P}/a.txt` },
        { kind: "read", path: `${P}/a.txt` },
        { kind: "write", path: "/work/b/c.txt" },
      ],
      kind: "file",
    });
    expect(shell(["apply_patch", patch]).kind).toBe("file");
    expect(shell(["bash", "-lc", `apply_patch <<'EOF'\n${patch}\nEOF`]).kind).toBe("file");
    expect(shell(["bash", "-lc", `apply_patch <<'EOF'\n${patch}\nEOF\ntouch x`]).kind).toBe("shell");
    // An unquoted delimiter lets the shell expand `$(…)` inside the patch; more commands run after it.
    expect(shell(`apply_patch <<EOF\n${patch}\nEOF`).kind).toBe("shell");
    expect(shell(`apply_patch <<'EOF'\n${patch}\nEOF\nrm -rf .git`).kind).toBe("shell");
    // Commands between the real end of the document and a second delimiter line run too.
    expect(shell(`apply_patch <<'EOF'\n${patch}\nEOF\necho pwned > .git/hooks/pre-commit; cat .env\nEOF\n`).kind).toBe(
      "shell",
    );
    expect(shell(["bash", "-lc", `apply_patch <<'EOF'\n${patch}\nEOF\ncat .env\nEOF\n`]).kind).toBe("shell");
    expect(shell(`apply_patch <<-'EOF'\n${patch}\n\tEOF\n`).kind).toBe("file");
  });
});

describe("patchTargets", () => {
  it("over-approximates: indented headers count, paths are trimmed", () => {
    expect(patchTargets("*** Begin Patch\n   *** Add File:   .env   \n+x\n*** End Patch")).toEqual([
      { op: "add", path: ".env" },
    ]);
  });

  it("reads every header a lenient parser could take for one: odd spacing, case, CRLF, several files", () => {
    const envelope =
      "*** Begin Patch\r\n***  add file :  src/a.ts \r\n+x\r\n\t*** Update File:b.ts\r\n*** move to: .env\r\n*** Delete File: c\r\n*** End Patch";
    expect(patchTargets(envelope)).toEqual([
      { op: "add", path: "src/a.ts" },
      { op: "update", path: "b.ts" },
      { op: "move", path: ".env" },
      { op: "delete", path: "c" },
    ]);
  });

  it("trims what Rust trims too: a header after a NEL (U+0085) is a header to Codex", () => {
    expect(
      patchTargets("*** Begin Patch\n*** Add File: ok.txt\n+x\n\u0085*** Add File: .envrc\u0085\n+evil\n*** End Patch"),
    ).toEqual([
      { op: "add", path: "ok.txt" },
      { op: "add", path: ".envrc" },
    ]);
  });

  it("reads a header whose path holds a line or paragraph separator (Codex keeps them)", () => {
    expect(patchTargets("*** Begin Patch\n*** Add File: a\u2028/../.envrc\n+x\n*** End Patch")).toEqual([
      { op: "add", path: "a\u2028/../.envrc" },
    ]);
  });

  it("refuses an envelope it cannot read", () => {
    expect(() => patchTargets("*** Add File: x")).toThrow(/Begin Patch/);
    expect(() => patchTargets("*** Begin Patch\n*** End Patch")).toThrow(/names no file/);
    expect(() => patchTargets("*** Begin Patch\n*** Delete File:\n*** End Patch")).toThrow(/names no file/);
  });
});

describe("parseHookPayload", () => {
  it("refuses what the agent does not send", () => {
    expect(() => parseHookPayload("not json", "claude-code")).toThrow(/not JSON/);
    expect(() => parseHookPayload("[]", "claude-code")).toThrow(/not a JSON object/);
    const failure = recorded("claude-code", "FailedBash", P);
    expect(() => parseHookPayload(JSON.stringify(failure), "codex")).toThrow(/PostToolUseFailure.*is not one of/);
    const noTool = { ...recorded("claude-code", "Bash", P), tool_name: "" };
    expect(() => parseHookPayload(JSON.stringify(noTool), "claude-code")).toThrow(/tool_name/);
    const relative = { ...recorded("claude-code", "Bash", P), cwd: "app" };
    expect(() => parseHookPayload(JSON.stringify(relative), "claude-code")).toThrow(/cwd/);
  });
});

describe("the audit never records a command the agent hooks read", () => {
  it.each(SHELL_TOOLS.flatMap((tool) => SHELL_COMMAND_KEYS.map((key) => [tool, key] as const)))(
    "%s.%s holds a shell command, so tool-audit's configuration may not record it verbatim",
    (tool, key) => {
      const payload = parseHookPayload(
        JSON.stringify({ ...recorded("codex", "Bash", P), tool_name: tool, tool_input: { [key]: "npm test" } }),
        "codex",
      );
      expect(mapAgentCall(payload, {}, P).effects).toEqual([{ kind: "exec", command: "npm test" }]);
      expect(NEVER_VERBATIM[tool]).toContain(key);
      const parsed = toolAuditConfigSchema.safeParse({ verbatim: { [tool]: [key] } });
      expect(parsed.success).toBe(false);
    },
  );
});

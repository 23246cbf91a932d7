import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../host/test/helpers/scenario.ts";
import { runCli, writeScript } from "./cli-helpers.ts";

interface Listed {
  id: string;
  file: string;
  messages: number;
  prompts: number;
  firstPrompt: string;
  problem?: string;
}

/** A project, its own Gatehouse home, and a script that answers with text. */
function project() {
  const dir = tempDir();
  const home = mkdtempSync(join(tmpdir(), "gh-sessions-home-"));
  const env = { GATEHOUSE_HOME: home };
  const script = writeScript(dir, [{ content: [{ type: "text", text: "answered" }] }]);
  const run = (...args: string[]) => runCli(["run", "--cwd", dir, "--script", script, ...args], { env });
  const list = async (): Promise<Listed[]> =>
    (JSON.parse((await runCli(["sessions", "--json", "--cwd", dir], { env })).stdout) as { sessions: Listed[] })
      .sessions;
  return { dir, home, env, script, run, list };
}

/** What a transcript says, entry by entry: a prompt's text, else the message's role. */
const said = (e: { message?: { role: string; content: unknown } }) =>
  e.message?.role === "user" ? e.message.content : e.message?.role;

const entries = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map(
      (line) =>
        JSON.parse(line) as {
          id: string;
          parentId: string | null;
          type: string;
          message?: { role: string; content: unknown };
        },
    );

/** Every file under the store with its bytes, to prove a command changed nothing. */
function snapshot(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else out[path] = readFileSync(path, "utf8");
    }
  };
  walk(join(home, "sessions"));
  return out;
}

describe("sessions by default", () => {
  it("records every run in the per-user directory, per project, private; gatehouse sessions lists them newest first", async () => {
    const p = project();
    const first = await p.run("first prompt");
    const second = await p.run("second prompt", "--json");
    expect([first.code, second.code]).toEqual([0, 0]);
    const sessions = await p.list();
    expect(sessions.map((s) => s.firstPrompt)).toEqual(["second prompt", "first prompt"]);
    expect(sessions.map((s) => [s.messages, s.prompts])).toEqual([
      [2, 1],
      [2, 1],
    ]);
    expect(first.stdout.trimEnd().split("\n").at(-1)).toContain(`session ${sessions[1]?.id}`);
    const folder = join(p.home, "sessions", readdirSync(join(p.home, "sessions"))[0] as string);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const s of sessions) {
      expect(s.file.startsWith(`${folder}/`)).toBe(true);
      expect(statSync(s.file).mode & 0o777).toBe(0o600);
    }
    expect(JSON.parse(readFileSync(join(folder, "project.json"), "utf8")).project).toBe(p.dir);

    const human = await runCli(["sessions", "--cwd", p.dir], { env: p.env });
    const rows = human.stdout.split("\n");
    expect(rows[0]).toMatch(/^ID {8}LAST ACTIVE {7}MESSAGES {2}FIRST PROMPT$/);
    expect(rows[1]).toMatch(new RegExp(`^${sessions[0]?.id}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +2  second prompt$`));
    expect(rows[2]).toMatch(new RegExp(`^${sessions[1]?.id} .* first prompt$`));
    const other = await runCli(["sessions", "--cwd", tempDir()], { env: p.env });
    expect(other.stdout).toMatch(/^No sessions for .* yet/);
  });

  it("--continue resumes the project's last session: the new prompt follows the earlier answer", async () => {
    const p = project();
    await p.run("one");
    expect((await p.run("two", "-c")).code).toBe(0);
    const sessions = await p.list();
    expect(sessions).toHaveLength(1);
    const chain = entries(sessions[0]?.file as string);
    expect(chain.map(said)).toEqual(["one", "assistant", "two", "assistant"]);
    expect(chain[2]?.parentId).toBe(chain[1]?.id);
  });

  it("--resume ID continues the session that id (or a prefix) names; unknown ids and a missing terminal say which exist", async () => {
    const p = project();
    await p.run("older");
    await p.run("newer");
    const [newer, older] = await p.list();
    expect((await p.run("again", "--resume", (older as Listed).id.slice(0, 5))).code).toBe(0);
    expect(entries((older as Listed).file).map(said)).toEqual(["older", "assistant", "again", "assistant"]);
    const unknown = await p.run("x", "--resume", "zzzz");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no session "zzzz" in this project; sessions:');
    expect(unknown.stderr).toContain(`${(newer as Listed).id} (newer)`);
    const noTerminal = await p.run("x", "--resume");
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain("--resume needs an ID when there is no terminal to choose in");
    expect(noTerminal.stderr).toContain((older as Listed).id);
  });

  it("--no-session records nothing; --session FILE records into that file, as before", async () => {
    const p = project();
    expect((await p.run("quiet", "--no-session")).code).toBe(0);
    expect(await p.list()).toEqual([]);
    const file = join(p.dir, "work.jsonl");
    expect((await p.run("in a file", "--session", file)).code).toBe(0);
    expect(entries(file).map((e) => e.message?.role)).toEqual(["user", "assistant"]);
    expect(await p.list()).toEqual([]);
    const clash = await p.run("x", "--no-session", "-c");
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("--no-session records nothing");
  });

  it("sessions marks a file that --resume would refuse (empty, no header, a corrupt line) and names the check; a torn last line is fine", async () => {
    const p = project();
    await p.run("kept prompt");
    const [good] = await p.list();
    const folder = join((good as Listed).file, "..");
    const text = readFileSync((good as Listed).file, "utf8");
    const lines = text.trimEnd().split("\n");
    const put = (id: string, body: string) => writeFileSync(join(folder, `2020-01-01T00-00-00-000Z_${id}.jsonl`), body);
    put("00000001", "");
    put("00000002", "garbage\n");
    put("00000003", `${[lines[0], "{not json", ...lines.slice(1)].join("\n")}\n`);
    put("00000004", `${text}{"type":"message","id":"torn","par`);
    put("00000005", `${lines.slice(1).join("\n")}\n`);
    const problems = Object.fromEntries((await p.list()).map((s) => [s.id, [s.problem, s.firstPrompt]]));
    expect(problems).toEqual({
      [(good as Listed).id]: [undefined, "kept prompt"],
      "00000001": ["empty: no session header", ""],
      "00000002": ["corrupt line 1", ""],
      "00000003": ["corrupt line 2", "kept prompt"],
      "00000004": [undefined, "kept prompt"],
      "00000005": ["no session header on line 1", "kept prompt"],
    });
    // Each marked file is one that resuming refuses (exit 2): the list said so first.
    for (const id of ["00000001", "00000002", "00000003", "00000005"])
      expect((await p.run("x", "--resume", id)).code, id).toBe(2);
    const human = await runCli(["sessions", "--cwd", p.dir], { env: p.env });
    expect(human.stdout).toContain("(corrupt line 2: gatehouse session check 00000003) kept prompt");
  });

  it("a command that fails validation, or whose guard cannot run, changes no session file and leaves none behind", async () => {
    const p = project();
    await p.run("first");
    const [only] = await p.list();
    appendFileSync((only as Listed).file, '{"type":"message","id":"torn","par'); // a crash mid-append
    const before = snapshot(p.home);
    const bad = join(p.dir, "bad.json");
    writeFileSync(bad, '{ "turns": [ { "content": 5 } ] }');
    const refusals = [
      ["-c", "--branch", "nope"],
      ["--resume", "zzzz"],
      ["-c", "--max-turns", "0"],
      ["-c", "--frobnicate"],
      ["-c", "--resume", (only as Listed).id],
    ];
    for (const args of refusals) expect((await p.run("x", ...args)).code, args.join(" ")).toBe(2);
    const badScript = await runCli(["run", "-c", "--cwd", p.dir, "--script", bad], { env: p.env });
    expect(badScript.code).toBe(2);
    mkdirSync(join(p.dir, ".gatehouse"));
    writeFileSync(
      join(p.dir, ".gatehouse/settings.json"),
      JSON.stringify({ extensions: ["@gatehouse/protected-paths"], config: { "protected-paths": { bash: "bogus" } } }),
    );
    for (const args of [[], ["-c"]]) {
      const guarded = await p.run("x", ...args);
      expect(guarded.code, args.join(" ")).toBe(2);
      expect(guarded.stderr).toContain("protected-paths");
    }
    expect(snapshot(p.home)).toEqual(before);
  });

  it("branching onto a call whose result is not on the path is refused, naming where to branch; onto a result or a prompt it continues", async () => {
    const p = project();
    const script = writeScript(p.dir, [
      { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "a" } }] },
      { content: [{ type: "text", text: "wrote it" }] },
    ]);
    await runCli(["run", "go", "--cwd", p.dir, "--script", script], { env: p.env });
    const [session] = await p.list();
    const file = (session as Listed).file;
    const [prompt, asks, result] = entries(file);
    const before = readFileSync(file, "utf8");
    const refused = await p.run("x", "-c", "--branch", asks?.id as string);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `Cannot branch onto ${asks?.id}: the assistant message ${asks?.id} asks for tool calls A (write) that have no result on that path; branch onto ${result?.id} (after its results) or ${prompt?.id} (before the model asked).`,
    );
    expect(readFileSync(file, "utf8")).toBe(before);
    expect((await p.run("after the write", "-c", "--branch", result?.id as string)).code).toBe(0);
    expect((await p.run("from the start", "--branch", prompt?.id as string)).code).toBe(0);
    const check = await runCli(["session", "check", "--cwd", p.dir], { env: p.env });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("0 errors, 0 warnings");
    const tree = await runCli(["session", "show", (session as Listed).id.slice(0, 6), "--cwd", p.dir], { env: p.env });
    expect(tree.stdout).toContain("after the write");
    expect(tree.stdout).toContain("from the start");
  });
});

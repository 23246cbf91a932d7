import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeProject, type TestProject } from "../../../host/test/extensions/project.ts";
import { auditPath } from "./audit-lines.ts";
import { type CliRun, runCli } from "./cli-helpers.ts";

// `gatehouse policy check`: the decision for one hypothetical call, through the real CLI.

/** The spelling rows printed under an effect: `  form  path`. */
const spelling = (form: string, path: string) =>
  new RegExp(`^  ${form} +${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m");

describe("gatehouse policy check", () => {
  let p: TestProject;
  let real: string;
  const check = (tool: string | undefined, args: string | undefined, ...flags: string[]) =>
    runCli(
      [
        "policy",
        "check",
        ...(tool === undefined ? [] : ["--tool", tool]),
        ...(args === undefined ? [] : ["--args", args]),
        "--cwd",
        p.dir,
        ...flags,
      ],
      { env: p.env },
    );
  let envWrite: CliRun;
  let allowed: CliRun;
  let viaLink: CliRun;
  let tee: CliRun;
  let notJson: CliRun;
  let noTool: CliRun;
  let unknown: CliRun;
  let sandboxed: CliRun;

  beforeAll(async () => {
    p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({
        extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"],
      }),
      ".git/HEAD": "ref: refs/heads/main\n",
    });
    mkdirSync(join(p.dir, "playground"));
    symlinkSync(".git", join(p.dir, "repo-link"));
    real = realpathSync(p.dir);
    // Each check is its own process; they are independent, so they run side by side.
    [envWrite, allowed, viaLink, tee, notJson, noTool, unknown, sandboxed] = await Promise.all([
      check("write", '{"path":"./a/../.env","content":"S3CRET-VALUE"}'),
      check("write", '{"path":"playground/x.txt","content":"x"}'),
      check("write", '{"path":"repo-link/config","content":"x"}'),
      check("bash", '{"command":"cat x | tee .env"}', "--json"),
      check("write", "not json"),
      check(undefined, '{"path":"a"}'),
      check("nope", '{"path":"a"}', "--json"),
      check("bash", '{"command":"F=.env; cat $F"}'),
    ]);
  }, 30_000);

  it.skipIf(process.platform !== "linux")(
    "a command the analysis cannot follow is allowed to run in the sandbox, and says so",
    () => {
      expect(sandboxed.code).toBe(0);
      expect(sandboxed.stdout).toMatch(/^decision: allowed \(runs in the sandbox of protected-paths\)$/m);
    },
  );

  it("a write to .env spelled with .. is refused (exit 1): decision, rule, and every spelling of the path", () => {
    expect(envWrite.code).toBe(1);
    expect(envWrite.stdout).toMatch(/^decision: blocked by protected-paths$/m);
    expect(envWrite.stdout).toMatch(/^rule: default denyWrite \.env$/m);
    expect(envWrite.stdout).toMatch(spelling("given", "./a/../.env"));
    expect(envWrite.stdout).toMatch(spelling("absolute", join(p.dir, ".env")));
    expect(envWrite.stdout).toMatch(spelling("real", join(real, ".env")));
    expect(envWrite.stdout).not.toContain("S3CRET-VALUE");
  });

  it("a write to a playground file is allowed (exit 0)", () => {
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^decision: allowed$/m);
    expect(allowed.stdout).toMatch(spelling("real", join(real, "playground/x.txt")));
  });

  it("a path through a symlink to .git is refused, and the real spelling shows the .git target", () => {
    expect(viaLink.code).toBe(1);
    expect(viaLink.stdout).toMatch(/^decision: blocked by protected-paths$/m);
    expect(viaLink.stdout).toMatch(/^rule: default denyWrite \.git\/config$/m);
    expect(viaLink.stdout).toMatch(spelling("given", "repo-link/config"));
    expect(viaLink.stdout).toMatch(spelling("absolute", join(p.dir, "repo-link/config")));
    expect(viaLink.stdout).toMatch(spelling("real", join(real, ".git/config")));
  });

  it("bash writing .env through tee is refused; --json has the outcome and the explanation", () => {
    expect(tee.code).toBe(1);
    const result = JSON.parse(tee.stdout);
    expect(result).toMatchObject({ outcome: "blocked", blockedBy: "protected-paths" });
    expect(result.reason).toContain('".env" (tee)');
    expect(result.explanation).toEqual([
      {
        effect: { kind: "exec", command: "cat x | tee .env" },
        allowed: false,
        rule: "default denyWrite .env",
        spellings: [
          { form: "given", path: ".env" },
          { form: "absolute", path: join(p.dir, ".env") },
          { form: "real", path: join(real, ".env") },
        ],
      },
    ]);
  });

  it("bad usage is exit 2 saying what is wrong; an unknown tool is exit 1 with outcome unknown", () => {
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("--args is not valid JSON");
    expect(notJson.stdout).toBe("");
    expect(noTool.code).toBe(2);
    expect(noTool.stderr).toContain("--tool NAME is required");
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ outcome: "unknown", reason: expect.stringContaining('"nope"') });
  });

  it("nothing ran: no file was written, the symlinked .git is untouched, and nothing was audited", () => {
    expect(existsSync(join(p.dir, ".env"))).toBe(false);
    expect(readdirSync(join(p.dir, "playground"))).toEqual([]);
    expect(readdirSync(join(p.dir, ".git"))).toEqual(["HEAD"]);
    expect(existsSync(join(p.dir, ".gatehouse/audit"))).toBe(false);
    expect(existsSync(auditPath(p))).toBe(false);
  });
});

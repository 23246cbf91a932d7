import path from "node:path";
import { describe, expect, it } from "vitest";
import { insideWorkspace } from "../src/paths/workspace.ts";
import { createFixture, read, reasonOf, ruleOf, write } from "./helpers/fixture.ts";

describe("normalisation: .. segments and redundant separators", () => {
  it.each([
    [".env", "default denyWrite .env"],
    ["a/../.env", "default denyWrite .env"],
    ["././/.env", "default denyWrite .env"],
    ["src//..//.env", "default denyWrite .env"],
    ["src/../../proj/.env", "default denyWrite .env"],
    [".git/./config", "default denyWrite .git/config"],
    ["docs/../.git//config", "default denyWrite .git/config"],
    [".git/", "default denyWrite .git"],
    [".git", "default denyWrite .git"],
    [".git/hooks/../hooks/pre-push", "default denyWrite .git/hooks/**"],
    ["node_modules/pkg/../pkg/.env", "default denyWrite .env"],
    [".gatehouse//settings.json", "default denyWrite .gatehouse/**"],
  ])("a write to %j is refused by %s", (spelling, rule) => {
    const policy = createFixture().policy();
    expect(ruleOf(policy.check(write(spelling)))).toBe(rule);
  });

  it("names the path as the model spelled it in the reason", () => {
    const policy = createFixture().policy();
    expect(reasonOf(policy.check(write("a/../.env")))).toBe(
      'Write to "a/../.env" refused: .env files hold secrets and are protected (default denyWrite .env).',
    );
  });

  it("a .. that climbs out of the workspace is outside it, even when it comes back by name", () => {
    const f = createFixture();
    const policy = f.policy();
    expect(ruleOf(policy.check(write("../outside/x.txt")))).toBe("outside workspace");
    expect(ruleOf(policy.check(write("src/../../proj/src/ok.ts")))).toBe("allow");
  });
});

describe("absolute paths and ~", () => {
  it("an absolute path into the workspace is checked like the relative one", () => {
    const f = createFixture();
    const policy = f.policy();
    expect(ruleOf(policy.check(write(path.join(f.ws, ".env"))))).toBe("default denyWrite .env");
    expect(ruleOf(policy.check(write(`${f.ws}//src/../.git/config`)))).toBe("default denyWrite .git/config");
    expect(ruleOf(policy.check(write(path.join(f.ws, "src/new.ts"))))).toBe("allow");
  });

  it("~ and ~/x expand to the home directory, like the built-ins", () => {
    const f = createFixture();
    const policy = f.policy();
    expect(ruleOf(policy.check(write("~/notes.txt")))).toBe("outside workspace");
    expect(ruleOf(policy.check(write("~")))).toBe("outside workspace");
    expect(ruleOf(policy.check(read("~/notes.txt")))).toBe("allow");
    // With the home inside the workspace, ~/.env is that workspace's .env.
    const homeInside = f.policy({}, { home: f.ws });
    expect(ruleOf(homeInside.check(write("~/.env")))).toBe("default denyWrite .env");
    expect(homeInside.check(write("~/.env")).spellings).toContainEqual({
      form: "absolute",
      path: path.join(f.ws, ".env"),
    });
  });

  it("~user is not expanded (the built-ins do not either): it is a directory named ~user", () => {
    const f = createFixture();
    const decision = f.policy().check(write("~user/x.txt"));
    expect(decision.allow).toBe(true);
    expect(decision.spellings).toContainEqual({ form: "absolute", path: path.join(f.ws, "~user/x.txt") });
  });
});

describe("directory-prefix confusion", () => {
  it("/proj-evil is not inside /proj", () => {
    const f = createFixture();
    const policy = f.policy({ allowOutsideWorkspace: { read: false } });
    expect(ruleOf(policy.check(write(path.join(f.evil, "x.txt"))))).toBe("outside workspace");
    expect(ruleOf(policy.check(write(`${f.ws}-evil/x.txt`)))).toBe("outside workspace");
    expect(ruleOf(policy.check(write("../proj-evil/x.txt")))).toBe("outside workspace");
    expect(ruleOf(policy.check(read(`${f.ws}-evil/x.txt`)))).toBe("outside workspace");
    expect(ruleOf(policy.check(write(`${f.ws}/evil.txt`)))).toBe("allow");
  });

  it("a directory whose name starts with .. is inside the workspace", () => {
    const policy = createFixture().policy();
    expect(ruleOf(policy.check(write("..data/x.txt")))).toBe("allow");
  });
});

describe("the workspace root itself", () => {
  it("refuses writes to the root and to its ancestors, even when outside writes are allowed", () => {
    const f = createFixture();
    const policy = f.policy({ allowOutsideWorkspace: { write: true } });
    expect(ruleOf(policy.check(write(".")))).toBe("workspace root");
    expect(ruleOf(policy.check(write(f.base)))).toBe("workspace root");
    expect(ruleOf(policy.check(write("/")))).toBe("workspace root");
    expect(ruleOf(policy.check(read(".")))).toBe("allow");
  });
});

describe("workspace containment of resolved paths", () => {
  /** The reference: containment decided by path.relative alone. */
  const byRelative = (root: string, target: string) => {
    const rel = path.relative(root, target);
    return !(rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
  };
  const roots = ["/proj", "/", "/proj/sub", "/a/../proj", "/proj/"];
  const targets = [
    "/proj",
    "/proj/",
    "/proj/x",
    "/proj-evil/x",
    "/projx",
    "/proj/../etc/passwd",
    "/proj/./x",
    "/proj/x/..",
    "/proj/x/../..",
    "/proj//x",
    "/proj/..x/y",
    "/proj/sub/../../x",
    "/",
    "/etc",
  ];
  it.each(roots)("insideWorkspace agrees with path.relative for every target under root %j", (root) => {
    const ws = [{ given: root, absolute: root, real: root }];
    for (const target of targets)
      expect([target, insideWorkspace(ws, target)]).toEqual([target, byRelative(root, target)]);
  });
});

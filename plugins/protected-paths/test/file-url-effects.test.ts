import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createFixture, read, ruleOf } from "./helpers/fixture.ts";

/** A `file:` URL of a workspace path with every character of `escaped` percent-encoded. */
function encodedUrl(absolute: string, escaped: string): string {
  const url = pathToFileURL(absolute).href;
  return url.replace(escaped, [...escaped].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(""));
}

// Before: a tool that opens "a path or a file URL" declared `read file:///work/%2Eenv`, which the
// policy took for a file named "file:" below the workspace, and the tool opened .env.
describe("a file: URL in a read or write effect", () => {
  it("is checked as the path it names too: an escaped .env, secrets or .envrc is refused", () => {
    const f = createFixture();
    f.file("secrets/key.txt");
    const policy = f.policy({ denyRead: ["secrets/**"] });
    expect(ruleOf(policy.check(read(encodedUrl(`${f.ws}/.env`, ".env"))))).toBe("default denyRead .env");
    expect(ruleOf(policy.check(read(encodedUrl(`${f.ws}/secrets/key.txt`, "secrets"))))).toBe(
      "config denyRead secrets/**",
    );
    const envrc = encodedUrl(`${f.ws}/.envrc`, ".envrc");
    expect(policy.check({ kind: "write", path: envrc }).allow).toBe(false);
    expect(ruleOf(policy.check(read(`FILE://${f.ws}/%2Eenv`)))).toBe("default denyRead .env");
  });

  it("one that names no local file is refused; one of an allowed file is allowed", () => {
    const f = createFixture();
    const policy = f.policy();
    expect(ruleOf(policy.check(read("file://elsewhere/etc/hosts")))).toBe("file URL");
    expect(ruleOf(policy.check(read(`file://${f.ws}/a%2Fb`)))).toBe("file URL");
    expect(policy.check(read(pathToFileURL(`${f.ws}/src/app.ts`).href)).allow).toBe(true);
  });
});

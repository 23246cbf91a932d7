import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scrubSecrets } from "../src/secret-scrub.ts";

// Secrets of each shape, built at run time so no scanner mistakes this file for a leak.
const j = (...parts: string[]) => parts.join("");
const SHAPES: [string, string, string][] = [
  ["aws access key id", j("AKIA", "IOSFODNN7", "EXAMPLE"), "aws-access-key"],
  ["aws temporary key id", j("ASIA", "Y34FZKBOKMUTVV7A"), "aws-access-key"],
  ["anthropic key", j("sk-ant-", "api03-", "a".repeat(20), "B7_x-9Qz"), "anthropic-key"],
  ["openai project key", j("sk-", "proj-", "Xy7".repeat(12)), "api-key"],
  ["sk-live key", j("sk-", "live-", "SECRET-0123456789"), "api-key"],
  ["stripe secret key", j("sk_", "live_", "51H8aZk2eZvKYlo2C0123"), "api-key"],
  ["github classic token", j("ghp_", "16C7e42F292c6912E7710c838347Ae178B4a"), "github-token"],
  ["github fine-grained token", j("github_pat_", "11ABCDEFG0", "_abcdefghijklmnopqrstuvwxyz012345"), "github-token"],
  ["gitlab token", j("glpat-", "x".repeat(20)), "gitlab-token"],
  ["slack bot token", j("xoxb-", "1234567890-", "0987654321-", "AbCdEfGhIjKl"), "slack-token"],
  [
    "slack webhook",
    j("https://hooks.slack.com/services/", "T00000000/B00000000/", "XXXXXXXXXXXXXXXXXXXXXXXX"),
    "slack-webhook",
  ],
  ["google api key", j("AIza", "SyA-1234567890abcdefghijklmnopqrstu"), "google-api-key"],
  ["npm token", j("npm_", "a".repeat(36)), "npm-token"],
  [
    "jwt",
    j("eyJhbGciOiJIUzI1NiJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", ".", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    "jwt",
  ],
  [
    "private key block",
    j("-----BEGIN RSA ", "PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA ", "PRIVATE KEY-----"),
    "private-key",
  ],
  ["openssh private key", j("-----BEGIN OPENSSH ", "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE"), "private-key"],
];

describe("scrubSecrets: each shape", () => {
  for (const [what, secret, rule] of SHAPES) {
    it(`${what} is replaced by [REDACTED:${rule}], alone, inside a path and inside serialized JSON`, () => {
      expect(scrubSecrets(secret)).toBe(`[REDACTED:${rule}]`);
      const path = scrubSecrets(`notes/${secret}.txt`);
      expect(path).not.toContain(secret);
      expect(path).toContain(`[REDACTED:${rule}]`);
      // Glued to a word (tool_…, or a letter for the distinctive prefixes) it is still found.
      expect(scrubSecrets(`tool_${secret}`)).toBe(`tool_[REDACTED:${rule}]`);
      const json = JSON.stringify({ path: `x\n${secret}`, key: secret });
      const scrubbed = scrubSecrets(json);
      expect(scrubbed).not.toContain(secret.slice(4, 20));
      expect(JSON.parse(scrubbed)).toEqual({ path: `x\n[REDACTED:${rule}]`, key: `[REDACTED:${rule}]` });
    });
  }

  it("NAME=value with a secret-like name keeps the name and drops the value, in any case", () => {
    expect(scrubSecrets("DB_PASSWORD=hunter2 npm test")).toBe("DB_PASSWORD=[REDACTED:assignment] npm test");
    expect(scrubSecrets("export GITHUB_TOKEN='abc' && x")).toBe("export GITHUB_TOKEN=[REDACTED:assignment] && x");
    expect(scrubSecrets("api_key = s3cr3t")).toBe("api_key = [REDACTED:assignment]");
    expect(scrubSecrets("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG")).toBe(
      "aws_secret_access_key=[REDACTED:assignment]",
    );
    const json = JSON.stringify({ pattern: 'clientSecret="p@ss word"' });
    expect(JSON.parse(scrubSecrets(json))).toEqual({ pattern: "clientSecret=[REDACTED:assignment]" });
  });

  it("credentials in URLs and bearer tokens are scrubbed, the rest of the text kept", () => {
    expect(scrubSecrets("https://deploy:Pa55word@example.com/x")).toBe(
      "https://[REDACTED:url-credentials]@example.com/x",
    );
    expect(scrubSecrets("Authorization: Bearer abcdefghijklmnop1234")).toBe(
      "Authorization: Bearer [REDACTED:bearer-token]",
    );
  });

  it("a bearer token or an assignment separated by a tab or a line break is scrubbed in serialized JSON too (where those are escapes)", () => {
    const token = j("abcdefghij", "klmnop1234");
    for (const [text, scrubbed] of [
      [`Authorization: Bearer\t${token}`, "Authorization: Bearer\t[REDACTED:bearer-token]"],
      [`curl -H 'Authorization:\nBearer ${token}'`, "curl -H 'Authorization:\nBearer [REDACTED:bearer-token]'"],
      [`x\nbearer\r\n${token}`, "x\nbearer\r\n[REDACTED:bearer-token]"],
      ["DB_PASSWORD=\thunter2", "DB_PASSWORD=\t[REDACTED:assignment]"],
      ["api_key\n=\nhunter2", "api_key\n=\n[REDACTED:assignment]"],
    ] as const) {
      expect(scrubSecrets(text)).toBe(scrubbed);
      expect(JSON.parse(scrubSecrets(JSON.stringify({ reason: text })))).toEqual({ reason: scrubbed });
    }
  });

  it("ordinary words that merely resemble a shape are kept", () => {
    for (const text of [
      "src/desk-organizer-component-longname.ts",
      "author=Ada",
      "max_tokens=100",
      "TOKEN_FILE=/run/secrets/x",
      "ghp_short",
      "task-1234567890-abcdef",
      "packages/host/src/tools/bash-tool.ts",
      "eyJhbGciOi.not-a-jwt",
    ]) {
      expect(scrubSecrets(text)).toBe(text);
    }
  });
});

describe("scrubSecrets on this repository's own file paths", () => {
  it("changes none of them (no false positives on ordinary paths)", () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
    const paths = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
    expect(paths.length).toBeGreaterThan(200);
    const changed = paths.filter((p) => scrubSecrets(p) !== p || scrubSecrets(JSON.stringify(p)) !== JSON.stringify(p));
    expect(changed).toEqual([]);
  });
});

describe("scrubSecrets: the quick test never hides a shape", () => {
  it("finds a bearer token in any case", () => {
    expect(scrubSecrets("authorization: BeArEr abcdefghijklmnop1234")).toBe(
      "authorization: BeArEr [REDACTED:bearer-token]",
    );
  });
});

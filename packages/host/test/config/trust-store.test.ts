import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grantTrust, revokeTrust, trustStatus } from "../../src/config/trust-store.ts";
import { expectGatehouseError } from "./settings-fixture.ts";

let root: string;
let home: string;
let project: string;
let files: string[];

function write(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function makeProject(dir: string): string[] {
  return [
    write(join(dir, ".gatehouse", "extensions", "guard.ts"), "export default () => {};\n"),
    write(join(dir, ".gatehouse", "settings.json"), '{"extensions": ["./tools/x.ts"]}\n'),
    write(join(dir, "tools", "x.ts"), "export default () => {};\n"),
  ];
}

const status = (extra: Partial<Parameters<typeof trustStatus>[0]> = {}) =>
  trustStatus({ home, projectDir: project, files, ...extra });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "gatehouse-trust-"));
  home = join(root, "home", ".gatehouse");
  project = join(root, "project");
  files = makeProject(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("trust store", () => {
  it("does not trust a project by default, and reading creates nothing", () => {
    expect(status()).toEqual({
      trusted: false,
      reason: `project ${project} has not been trusted`,
      changed: [],
      added: [".gatehouse/extensions/guard.ts", ".gatehouse/settings.json", "tools/x.ts"],
      removed: [],
    });
    expect(() => statSync(home)).toThrow(/ENOENT/);
  });

  it("trusts the project after a grant, recording real path and sha256 per relative file", () => {
    const record = grantTrust({ home, projectDir: project, files });
    expect(status()).toEqual({ trusted: true, changed: [], added: [], removed: [] });
    const stored = JSON.parse(readFileSync(join(home, "trust.json"), "utf8"));
    expect(stored).toEqual({ version: 1, projects: { [project]: record } });
    expect(new Date(record.grantedAt).toISOString()).toBe(record.grantedAt);
    const sha = createHash("sha256").update("export default () => {};\n").digest("hex");
    expect(record.files["tools/x.ts"]).toBe(sha);
    expect(Object.keys(record.files)).toEqual([
      ".gatehouse/extensions/guard.ts",
      ".gatehouse/settings.json",
      "tools/x.ts",
    ]);
  });

  it("creates a missing home with mode 0700 and leaves no temporary file behind", () => {
    grantTrust({ home, projectDir: project, files });
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, "trust.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(home)).toEqual(["trust.json"]);
  });

  it("needs trust again after a file is edited, naming the file", () => {
    grantTrust({ home, projectDir: project, files });
    write(files[0] as string, "export default () => { evil(); };\n");
    const result = status();
    expect(result).toMatchObject({
      trusted: false,
      changed: [".gatehouse/extensions/guard.ts"],
      added: [],
      removed: [],
    });
    expect(result.reason).toMatch(/^\.gatehouse\/extensions\/guard\.ts was edited since trust was granted at \d{4}-/);
  });

  it("stays trusted when a file is rewritten with the same content", () => {
    grantTrust({ home, projectDir: project, files });
    write(files[2] as string, "export default () => {};\n");
    expect(status().trusted).toBe(true);
  });

  it("needs trust again after a file is added or removed", () => {
    grantTrust({ home, projectDir: project, files });
    const added = write(join(project, ".gatehouse", "extensions", "new.ts"), "x");
    expect(status({ files: [...files, added] })).toMatchObject({
      trusted: false,
      added: [".gatehouse/extensions/new.ts"],
      reason: expect.stringMatching(/^\.gatehouse\/extensions\/new\.ts was added since/),
    });
    rmSync(files[2] as string);
    expect(status({ files: files.slice(0, 2) })).toMatchObject({
      trusted: false,
      removed: ["tools/x.ts"],
      reason: expect.stringMatching(/^tools\/x\.ts was removed since/),
    });
  });

  it("lists several changes in one sentence", () => {
    grantTrust({ home, projectDir: project, files });
    write(files[0] as string, "1");
    write(files[1] as string, "{}");
    const added = write(join(project, "tools", "y.ts"), "y");
    const result = status({ files: [files[0] as string, files[1] as string, added] });
    expect(result.reason).toMatch(
      /^\.gatehouse\/extensions\/guard\.ts was edited, \.gatehouse\/settings\.json was edited and 2 more files changed since trust was granted at /,
    );
    expect(result).toMatchObject({ added: ["tools/y.ts"], removed: ["tools/x.ts"] });
  });

  it("revokes trust once and keeps other projects' records", () => {
    const other = join(root, "other");
    const otherFiles = makeProject(other);
    grantTrust({ home, projectDir: project, files });
    grantTrust({ home, projectDir: other, files: otherFiles });
    expect(revokeTrust({ home, projectDir: project })).toBe(true);
    expect(status()).toMatchObject({ trusted: false, reason: `project ${project} has not been trusted` });
    expect(revokeTrust({ home, projectDir: project })).toBe(false);
    expect(trustStatus({ home, projectDir: other, files: otherFiles }).trusted).toBe(true);
  });

  it("does not trust a different project with identical files", () => {
    grantTrust({ home, projectDir: project, files });
    const copy = join(root, "copy");
    expect(trustStatus({ home, projectDir: copy, files: makeProject(copy) }).trusted).toBe(false);
  });

  it("resolves a symlinked project path to the same record", () => {
    const link = join(root, "link");
    symlinkSync(project, link, "dir");
    const linkedFiles = files.map((file) => file.replace(project, link));
    grantTrust({ home, projectDir: link, files: linkedFiles });
    const stored = JSON.parse(readFileSync(join(home, "trust.json"), "utf8"));
    expect(Object.keys(stored.projects)).toEqual([project]);
    expect(status().trusted).toBe(true);
    expect(trustStatus({ home, projectDir: link, files: linkedFiles }).trusted).toBe(true);
    expect(trustStatus({ home, projectDir: link, files }).trusted).toBe(true);
  });

  it("refuses to trust a file it cannot read and records nothing", () => {
    const error = expectGatehouseError(
      () => grantTrust({ home, projectDir: project, files: [...files, join(project, "gone.ts")] }),
      "GH_SETTINGS_INVALID",
    );
    expect(error.message).toBe(`Cannot trust ${project}: cannot read gone.ts: no such file or directory (ENOENT)`);
    expect(() => statSync(join(home, "trust.json"))).toThrow(/ENOENT/);
  });

  it("reports a corrupt trust.json naming the file and never overwrites it", () => {
    const file = write(join(home, "trust.json"), '{"version": 1, "projects": {\n');
    const error = expectGatehouseError(() => status(), "GH_SETTINGS_INVALID");
    expect(error.message).toMatch(new RegExp(`^Invalid trust store ${file} \\(malformed JSON\\):\\n  ${file}:2:1: `));
    expectGatehouseError(() => grantTrust({ home, projectDir: project, files }), "GH_SETTINGS_INVALID");
    expectGatehouseError(() => revokeTrust({ home, projectDir: project }), "GH_SETTINGS_INVALID");
    expect(readFileSync(file, "utf8")).toBe('{"version": 1, "projects": {\n');
  });

  it("reports a trust.json of another shape or version with line, column and field", () => {
    const file = write(
      join(home, "trust.json"),
      '{\n  "version": 2,\n  "projects": {"/p": {"files": {"a": "zz"}}}\n}\n',
    );
    const error = expectGatehouseError(() => status(), "GH_SETTINGS_INVALID");
    expect(error.message.split("\n").map((line) => line.trim())).toEqual([
      `Invalid trust store ${file} (3 problems):`,
      `${file}:2:14: version: expected 1, received 2`,
      `${file}:3:22: projects["/p"].grantedAt: missing, expected string`,
      `${file}:3:38: projects["/p"].files.a: expected a sha256 hex digest`,
    ]);
  });
});

import { createHash } from "node:crypto";
import {
  chownSync,
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
import { type ExtensionCode, grantTrust, revokeTrust, trustStatuses } from "../../src/config/trust-store.ts";
import { expectGatehouseError } from "./settings-fixture.ts";

let root: string;
let home: string;
let project: string;
let extensions: ExtensionCode[];

function write(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** Two extensions: `guard.ts` alone, and `tools/x.ts` importing `lib/fmt.ts`. */
function makeProject(dir: string): ExtensionCode[] {
  return [
    {
      key: ".gatehouse/extensions/guard.ts",
      files: [write(join(dir, ".gatehouse/extensions/guard.ts"), "export default () => {};\n")],
    },
    {
      key: "tools/x.ts",
      files: [
        write(join(dir, "tools/x.ts"), 'import "../lib/fmt.ts";\n'),
        write(join(dir, "lib/fmt.ts"), "export {};\n"),
      ],
    },
  ];
}

const status = (extra: Partial<Parameters<typeof trustStatuses>[0]> = {}) =>
  trustStatuses({ home, projectDir: project, extensions, ...extra });
const trusted = (extra: Partial<Parameters<typeof trustStatuses>[0]> = {}) =>
  Object.fromEntries([...status(extra)].map(([key, s]) => [key, s.trusted]));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "gatehouse-trust-"));
  home = join(root, "home", ".gatehouse");
  project = join(root, "project");
  extensions = makeProject(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("trust store", () => {
  it("does not trust a project by default, and reading creates nothing", () => {
    expect(status().get("tools/x.ts")).toEqual({
      trusted: false,
      reason: `project ${project} has not been trusted`,
      changed: [],
      added: ["tools/x.ts", "lib/fmt.ts"],
      removed: [],
      approved: new Map(),
    });
    expect(() => statSync(home)).toThrow(/ENOENT/);
  });

  it("records, per extension, the real path of the project and the sha256 of every file it loads", () => {
    const record = grantTrust({ home, projectDir: project, extensions });
    expect(trusted()).toEqual({ ".gatehouse/extensions/guard.ts": true, "tools/x.ts": true });
    const stored = JSON.parse(readFileSync(join(home, "trust.json"), "utf8"));
    expect(stored).toEqual({ version: 2, projects: { [project]: record } });
    const sha = createHash("sha256").update("export {};\n").digest("hex");
    expect(record.extensions["tools/x.ts"]?.files).toEqual({
      "lib/fmt.ts": sha,
      "tools/x.ts": createHash("sha256").update('import "../lib/fmt.ts";\n').digest("hex"),
    });
    expect(status().get("tools/x.ts")?.approved).toEqual(
      new Map([
        [join(project, "lib/fmt.ts"), sha],
        [join(project, "tools/x.ts"), expect.any(String)],
      ]),
    );
  });

  it("creates a missing home with mode 0700 and leaves no temporary file behind", () => {
    grantTrust({ home, projectDir: project, extensions });
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, "trust.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(home)).toEqual(["trust.json"]);
  });

  it("an edited imported file un-trusts only the extension that loads it, naming the file", () => {
    grantTrust({ home, projectDir: project, extensions });
    write(join(project, "lib/fmt.ts"), "export const evil = 1;\n");
    expect(trusted()).toEqual({ ".gatehouse/extensions/guard.ts": true, "tools/x.ts": false });
    expect(status().get("tools/x.ts")?.reason).toMatch(/^lib\/fmt\.ts was edited since trust was granted at \d{4}-/);
  });

  it("stays trusted when a file is rewritten with the same content, or an unrelated file appears", () => {
    grantTrust({ home, projectDir: project, extensions });
    write(join(project, "lib/fmt.ts"), "export {};\n");
    write(join(project, ".gatehouse/settings.json"), "{}");
    write(join(project, "notes.ts"), "x");
    expect(trusted()).toEqual({ ".gatehouse/extensions/guard.ts": true, "tools/x.ts": true });
  });

  it("needs trust again when an extension imports another project file, or one that was not enabled appears", () => {
    grantTrust({ home, projectDir: project, extensions });
    const more = write(join(project, "lib/more.ts"), "export {};\n");
    const grown = [
      extensions[0] as ExtensionCode,
      { key: "tools/x.ts", files: [...(extensions[1]?.files ?? []), more] },
    ];
    expect(status({ extensions: grown }).get("tools/x.ts")).toMatchObject({
      trusted: false,
      added: ["lib/more.ts"],
      reason: expect.stringMatching(/^lib\/more\.ts is now imported since/),
    });
    const added = { key: "new.ts", files: [write(join(project, "new.ts"), "x")] };
    expect(status({ extensions: [...extensions, added] }).get("new.ts")?.reason).toMatch(
      /^new\.ts was not enabled when trust was granted at /,
    );
  });

  it("revokes trust once and keeps other projects' records", () => {
    const other = join(root, "other");
    const otherExtensions = makeProject(other);
    grantTrust({ home, projectDir: project, extensions });
    grantTrust({ home, projectDir: other, extensions: otherExtensions });
    expect(revokeTrust({ home, projectDir: project })).toBe(true);
    expect(status().get("tools/x.ts")).toMatchObject({
      trusted: false,
      reason: `project ${project} has not been trusted`,
    });
    expect(revokeTrust({ home, projectDir: project })).toBe(false);
    expect(trustStatuses({ home, projectDir: other, extensions: otherExtensions }).get("tools/x.ts")?.trusted).toBe(
      true,
    );
  });

  it("does not trust a different project with identical files", () => {
    grantTrust({ home, projectDir: project, extensions });
    const copy = join(root, "copy");
    expect(trustStatuses({ home, projectDir: copy, extensions: makeProject(copy) }).get("tools/x.ts")?.trusted).toBe(
      false,
    );
  });

  it("resolves a symlinked project path to the same record", () => {
    const link = join(root, "link");
    symlinkSync(project, link, "dir");
    const linked = extensions.map((e) => ({ ...e, files: e.files.map((f) => f.replace(project, link)) }));
    grantTrust({ home, projectDir: link, extensions: linked });
    const stored = JSON.parse(readFileSync(join(home, "trust.json"), "utf8"));
    expect(Object.keys(stored.projects)).toEqual([project]);
    expect(trusted()).toEqual({ ".gatehouse/extensions/guard.ts": true, "tools/x.ts": true });
    expect(trustStatuses({ home, projectDir: link, extensions: linked }).get("tools/x.ts")?.trusted).toBe(true);
  });

  it("refuses to trust a file it cannot read and records nothing", () => {
    const gone = [{ key: "gone.ts", files: [join(project, "gone.ts")] }];
    const error = expectGatehouseError(
      () => grantTrust({ home, projectDir: project, extensions: gone }),
      "GH_SETTINGS_INVALID",
    );
    expect(error.message).toBe(`Cannot trust ${project}: cannot read gone.ts: no such file or directory (ENOENT)`);
    expect(() => statSync(join(home, "trust.json"))).toThrow(/ENOENT/);
  });

  it("reports a corrupt trust.json naming the file and never overwrites it", () => {
    const file = write(join(home, "trust.json"), '{"version": 2, "projects": {\n');
    const error = expectGatehouseError(() => status(), "GH_SETTINGS_INVALID");
    expect(error.message).toMatch(new RegExp(`^Invalid trust store ${file} \\(malformed JSON\\):\\n  ${file}:2:1: `));
    expectGatehouseError(() => grantTrust({ home, projectDir: project, extensions }), "GH_SETTINGS_INVALID");
    expectGatehouseError(() => revokeTrust({ home, projectDir: project }), "GH_SETTINGS_INVALID");
    expect(readFileSync(file, "utf8")).toBe('{"version": 2, "projects": {\n');
  });

  it("reports a trust.json of another version with line, column and field", () => {
    const file = write(join(home, "trust.json"), '{\n  "version": 3,\n  "projects": {}\n}\n');
    const error = expectGatehouseError(() => status(), "GH_SETTINGS_INVALID");
    expect(error.message.split("\n").map((line) => line.trim())).toEqual([
      `Invalid trust store ${file} (1 problem):`,
      `${file}:2:14: version: expected one of 1, 2, received 3`,
    ]);
  });

  it("a store an older Gatehouse wrote (entry files only) counts for nothing: trust again, then it is version 2", () => {
    const sha = createHash("sha256").update("export default () => {};\n").digest("hex");
    const legacy = { grantedAt: "2024-01-01T00:00:00.000Z", files: { ".gatehouse/extensions/guard.ts": sha } };
    write(join(home, "trust.json"), JSON.stringify({ version: 1, projects: { [project]: legacy } }));
    expect(status().get(".gatehouse/extensions/guard.ts")?.reason).toBe(
      `trust for ${project} was granted by an older Gatehouse that did not cover imported files`,
    );
    grantTrust({ home, projectDir: project, extensions });
    expect(JSON.parse(readFileSync(join(home, "trust.json"), "utf8")).version).toBe(2);
    expect(trusted()).toEqual({ ".gatehouse/extensions/guard.ts": true, "tools/x.ts": true });
  });

  it("refuses a home another user owns (a planted home), reading or writing", () => {
    // As root, plant the home by giving it away; as anyone else, "/" is such a folder already.
    let planted = "/";
    if ((process.getuid?.() ?? 0) === 0) {
      planted = home;
      mkdirSync(home, { recursive: true, mode: 0o700 });
      chownSync(home, 4242, 4242);
    }
    const options = { home: planted, projectDir: project, extensions };
    expect(expectGatehouseError(() => trustStatuses(options), "GH_STATE_DIR").message).toMatch(/is owned by uid/);
    expectGatehouseError(() => grantTrust(options), "GH_STATE_DIR");
  });
});

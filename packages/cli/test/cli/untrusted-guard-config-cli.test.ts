import { describe, expect, it } from "vitest";
import { makeProject } from "../../../host/test/extensions/project.ts";
import { runCli } from "./cli-helpers.ts";

// Finding: installed per project (`npm install -D` of the tarballs), the guards are files in the
// project's node_modules, so they run only once the project is trusted. Right after `gatehouse init`,
// the first command init suggests, `gatehouse policy check`, said "Invalid settings:
// config["protected-paths"] configures no extension (did you mean "@gatehouse/protected-paths"?)"
// — a typo that was not there — instead of saying the project is not trusted: an extension that did
// not load goes by its spec, so its own section looked misspelt.

describe("the config section of an extension that did not load", () => {
  it("is not reported as a typo: the command says why the extension is not running", async () => {
    const p = makeProject({
      "node_modules/@acme/guard/package.json": JSON.stringify({
        name: "@acme/guard",
        type: "module",
        main: "index.js",
      }),
      "node_modules/@acme/guard/index.js": 'export default { name: "guard", setup() {} };\n',
      ".gatehouse/settings.json": JSON.stringify({
        extensions: [{ spec: "@acme/guard", required: true }, "@gatehouse/protected-paths"],
        config: { guard: { strict: true } },
      }),
    });
    for (const command of [
      ["policy", "check", "--tool", "read", "--args", '{"path":"a"}'],
      ["tools"],
      ["extensions"],
    ]) {
      const run = await runCli([...command, "--cwd", p.dir], { env: p.env });
      expect(run.stderr, command.join(" ")).not.toContain("configures no extension");
      expect(`${run.stdout}${run.stderr}`, command.join(" ")).toContain("project code is not trusted");
      expect(run.code, command.join(" ")).toBe(2);
    }
  });
});

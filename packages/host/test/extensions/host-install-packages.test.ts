import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/scenario.ts";
import { closeHosts, makeProject, openHost } from "./project.ts";

afterEach(closeHosts);

/**
 * A Gatehouse installation (its module is the package base) with another package beside it, the
 * way a repository checkout has its dev tools beside the CLI and a global install has the other
 * global packages: a package whose import runs a file of the directory it was started in (as
 * `tsdown/run` loads `tsdown.config.ts`).
 */
function installationWithGadget(): { base: string; marker: string } {
  const root = tempDir("gh-install-");
  const put = (path: string, body: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  };
  put("node_modules/@gatehouse/cli/package.json", JSON.stringify({ name: "@gatehouse/cli", type: "module" }));
  put("node_modules/@gatehouse/cli/main.js", "export {};\n");
  put("node_modules/gadget/package.json", JSON.stringify({ name: "gadget", exports: { "./run": "./run.mjs" } }));
  put(
    "node_modules/gadget/run.mjs",
    `import { readFileSync, writeFileSync } from "node:fs";
const marker = JSON.parse(readFileSync(new URL("./marker.json", import.meta.url), "utf8"));
writeFileSync(marker, "ran");
export default () => {};
`,
  );
  const marker = join(root, "ran");
  put("node_modules/gadget/marker.json", JSON.stringify(marker));
  return { base: pathToFileURL(join(root, "node_modules/@gatehouse/cli/main.js")).href, marker };
}

describe("package names a project lists resolve from Gatehouse's installation only for Gatehouse's own packages", () => {
  it("a package beside the installation is not imported for an untrusted project (its import could run project code)", async () => {
    const { base, marker } = installationWithGadget();
    const p = makeProject({ ".gatehouse/settings.json": JSON.stringify({ extensions: ["gadget/run"] }) });
    for (const local of [false, true]) {
      if (local) p.write(".gatehouse/settings.local.json", JSON.stringify({ extensions: ["gadget/run"] }));
      const { host } = await openHost(p, { packageBases: [base] });
      const record = host.extensions().find((r) => r.source === "gadget/run");
      expect(record?.status).toBe("failed");
      expect(record?.errors.join("\n")).toMatch(/the copy beside Gatehouse .*is not used/);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it("user settings still load a package installed beside Gatehouse", async () => {
    const { base, marker } = installationWithGadget();
    const p = makeProject({}, { "settings.json": JSON.stringify({ extensions: ["gadget/run"] }) });
    const { host } = await openHost(p, { packageBases: [base] });
    expect(host.extensions().find((r) => r.source === "gadget/run")?.status).toBe("loaded");
    expect(readFileSync(marker, "utf8")).toBe("ran");
  });
});

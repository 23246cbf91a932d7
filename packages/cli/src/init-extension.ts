import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GatehouseError } from "@gatehouse/host";
import { extensionSource, extensionTest } from "./extension-template.ts";
import { parseCommand, usageError } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { projectDir } from "./run-command-support.ts";
import { initExtensionSpec } from "./specs/index.ts";

/** Extension names the scaffold accepts: kebab-case, as settings and `config.<name>` spell them. */
const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** What the project needs installed for the scaffolded test and the editor's types. */
export const EXTENSION_DEV_DEPENDENCIES = ["@gatehouse/sdk", "@gatehouse/testing", "vitest"];

/**
 * `gatehouse init extension NAME`: scaffolds a drop-in extension in the folder the host discovers,
 * `.gatehouse/extensions/NAME/` — `index.ts` (the extension) and `index.test.ts` (its test in a
 * real host through `@gatehouse/testing`, run with `npx vitest run`).
 * Contract: NAME must be kebab-case (GH_USAGE otherwise, naming it); existing files are never
 * replaced without `--force` and the command then fails naming them, writing nothing; it writes no
 * settings (drop-ins need none) and installs nothing, but prints the install and test commands.
 */
export async function initExtensionCommand(
  args: string[],
  io: CliIo,
  ensureTsconfig: (cwd: string) => string | undefined,
): Promise<number> {
  const { values, positionals } = parseCommand(initExtensionSpec, args);
  const [name] = positionals;
  if (name === undefined) throw usageError(initExtensionSpec, "init extension needs a NAME");
  if (!NAME.test(name) || name.length > 64) {
    throw usageError(
      initExtensionSpec,
      `"${name}" is not an extension name: use lowercase letters, digits and single hyphens, starting with a letter (e.g. no-lockfile-edits)`,
    );
  }
  const cwd = projectDir(io, values.cwd);
  const dir = join(".gatehouse", "extensions", name);
  const files = [
    { path: join(dir, "index.ts"), text: extensionSource(name), what: "the extension: a guard and a tool" },
    { path: join(dir, "index.test.ts"), text: extensionTest(name), what: "its test, in a real host" },
  ];
  const existing = files.filter((f) => existsSync(join(cwd, f.path)));
  if (existing.length > 0 && values.force !== true) {
    throw new GatehouseError(
      "GH_USAGE",
      `${existing.map((f) => f.path).join(" and ")} already ${existing.length === 1 ? "exists" : "exist"}; nothing was written (--force replaces ${existing.length === 1 ? "it" : "them"})`,
    );
  }
  mkdirSync(join(cwd, dir), { recursive: true });
  for (const f of files) {
    const replaced = existsSync(join(cwd, f.path));
    writeFileSync(join(cwd, f.path), f.text);
    io.stdout.write(`${(replaced ? "replaced" : "wrote").padEnd(9)} ${f.path}  ${f.what}\n`);
  }
  const tsconfig = ensureTsconfig(cwd);
  if (tsconfig) io.stdout.write(`${"wrote".padEnd(9)} .gatehouse/tsconfig.json  ${tsconfig}\n`);
  io.stdout.write(
    `\nNext:\n  npm install --save-dev ${EXTENSION_DEV_DEPENDENCIES.join(" ")}   (types and the test harness;\n` +
      "   until they are published, the packed tarballs: see the README's Install section)\n" +
      `  npx vitest run ${dir.split("\\").join("/")}\n` +
      "  gatehouse trust   (project extensions run once you trust them; gatehouse extensions lists them)\n",
  );
  return 0;
}

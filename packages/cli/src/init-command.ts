import { lstatSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { fileStep, readEditable, writeEditable } from "./edit-file.ts";
import { parseCommand } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { projectDir } from "./run-command-support.ts";
import { initSpec } from "./specs/index.ts";

/** What `gatehouse init` writes into `.gatehouse/settings.json`: both guards, their defaults spelled out. */
const SETTINGS = {
  extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"],
  config: {
    "protected-paths": { denyWrite: [], denyRead: [] },
    "tool-audit": { fsync: "batch" },
  },
};

/** Lines `.gitignore` needs: personal settings stay out of the repository. */
const IGNORED = [".gatehouse/settings.local.json"];

type Outcome = "wrote" | "kept" | "replaced" | "updated" | "unchanged";

interface Written {
  path: string;
  outcome: Outcome;
  what: string;
}

/**
 * Where a package is installed, relative to the project when it is inside it. `from` is the module
 * whose installation provides it: zod comes from the host's, as drop-ins get it at run time.
 */
function packageDir(name: string, project: string, from: string = import.meta.url): { path: string; local: boolean } {
  const dir = dirname(createRequire(from).resolve(`${name}/package.json`));
  const rel = relative(project, dir);
  const local = !rel.startsWith("..") && !isAbsolute(rel);
  return { path: local ? rel.split(sep).join("/") : dir, local };
}

/**
 * The editor setup for drop-in extensions: `@gatehouse/sdk` and `zod` mapped to the copies this
 * CLI runs with (the ones a drop-in file gets at run time), so types work with nothing installed.
 */
function extensionsTsconfig(project: string): { text: string; local: boolean } {
  const base = join(project, ".gatehouse");
  const sdk = packageDir("@gatehouse/sdk", project);
  const zod = packageDir("zod", project, createRequire(import.meta.url).resolve("@gatehouse/host/package.json"));
  const fromBase = (t: { path: string; local: boolean }) =>
    t.local ? relative(base, join(project, t.path)).split(sep).join("/") : t.path;
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      // Drop-ins and their tests import each other with the .ts extension, as Node and jiti run them.
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      paths: { "@gatehouse/sdk": [fromBase(sdk)], zod: [fromBase(zod)] },
    },
    include: ["extensions/**/*.ts"],
  };
  return { text: `${JSON.stringify(config, null, 2)}\n`, local: sdk.local && zod.local };
}

/**
 * The guards the settings enable that the project itself holds (its node_modules, where package
 * names resolve first): project code, which needs `gatehouse trust` before any run — unlike a
 * global install's, which are Gatehouse's own.
 */
function guardsInProject(project: string): string[] {
  const found: string[] = [];
  for (const name of SETTINGS.extensions) {
    const dir = [".gatehouse/node_modules", "node_modules"]
      .map((d) => `${d}/${name}`)
      .find((d) => isFile(join(project, d, "package.json")));
    if (dir) found.push(dir);
  }
  return found;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether anything (a dangling link included) is at `file`; a path through a file is an error. */
function present(file: string): boolean {
  return fileStep(file, "check", () => {
    try {
      lstatSync(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  });
}

function writeFile(file: string, text: string, force: boolean): Outcome {
  const exists = present(file);
  if (exists && !force) {
    // Kept only if it is a file the run can read: a FIFO or a folder "kept" left a project whose
    // every run then failed on its settings, while init said all was well.
    fileStep(file, "keep", () => {
      if (!statSync(file).isFile()) throw new Error("it is not a regular file");
    });
    return "kept";
  }
  writeEditable(file, text);
  return exists ? "replaced" : "wrote";
}

function addIgnores(file: string, lines: readonly string[]): Outcome {
  const text = readEditable(file) ?? "";
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = lines.filter((l) => !present.has(l));
  if (missing.length === 0) return "unchanged";
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  writeEditable(file, `${text}${separator}# Gatehouse\n${missing.join("\n")}\n`);
  return text === "" ? "wrote" : "updated";
}

/** Writes `.gatehouse/tsconfig.json` when the project has none; returns what it is for, if written. */
function ensureTsconfig(cwd: string): string | undefined {
  const file = join(cwd, ".gatehouse", "tsconfig.json");
  if (present(file)) return undefined;
  const tsconfig = extensionsTsconfig(cwd);
  writeFile(file, tsconfig.text, false);
  return tsconfig.local
    ? "types for drop-in extensions in .gatehouse/extensions/"
    : "types for drop-in extensions (points at this machine's Gatehouse: `gatehouse init` adds it to .gitignore)";
}

/**
 * `gatehouse init`: sets a project up for Gatehouse — settings enabling both guards, a .gitignore
 * entry for personal settings, and a tsconfig that gives drop-in extensions their types.
 * Contract: an existing file is never replaced without `--force` (it is reported as kept); the
 * .gitignore only gains missing lines; every file written is listed with what it is for.
 */
export async function initCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === "extension") {
    const { initExtensionCommand } = await import("./init-extension.ts");
    return initExtensionCommand(args.slice(1), io, ensureTsconfig);
  }
  const { values } = parseCommand(initSpec, args);
  const cwd = projectDir(io, values.cwd);
  const force = values.force === true;
  const tsconfig = extensionsTsconfig(cwd);
  const ignores = tsconfig.local ? IGNORED : [...IGNORED, ".gatehouse/tsconfig.json"];
  // A .gitignore it cannot edit is refused before anything is written.
  readEditable(join(cwd, ".gitignore"));
  const written: Written[] = [
    {
      path: ".gatehouse/settings.json",
      outcome: writeFile(join(cwd, ".gatehouse", "settings.json"), `${JSON.stringify(SETTINGS, null, 2)}\n`, force),
      what: "enables @gatehouse/protected-paths and @gatehouse/tool-audit (commit it)",
    },
    {
      path: ".gatehouse/tsconfig.json",
      outcome: writeFile(join(cwd, ".gatehouse", "tsconfig.json"), tsconfig.text, force),
      what: tsconfig.local
        ? "types for drop-in extensions in .gatehouse/extensions/"
        : "types for drop-in extensions (points at this machine's Gatehouse, so it is ignored by git)",
    },
    {
      path: ".gitignore",
      outcome: addIgnores(join(cwd, ".gitignore"), ignores),
      what: `keeps ${ignores.join(" and ")} out of the repository`,
    },
  ];
  const width = Math.max(...written.map((w) => w.path.length));
  for (const w of written) {
    const note = w.outcome === "kept" ? "exists, left as it is (--force replaces it)" : w.what;
    io.stdout.write(`${w.outcome.padEnd(9)} ${w.path.padEnd(width)}  ${note}\n`);
  }
  const local = guardsInProject(cwd);
  if (local.length > 0) {
    io.stdout.write(
      "\nFirst: `gatehouse trust`. The guards are installed in this project, so they are project code and\n" +
        "run only once you trust it (again after each reinstall); until then a run stops with exit 2:\n" +
        `  ${local.join(", ")}\n`,
    );
  }
  io.stdout.write(
    '\nNext: `gatehouse policy check --tool write --args \'{"path":".env","content":"x"}\'` shows the policy at work;\n' +
      "drop-in extensions go in .gatehouse/extensions/ and run after `gatehouse trust`;\n" +
      "`gatehouse init extension NAME` scaffolds one with a test.\n",
  );
  return 0;
}

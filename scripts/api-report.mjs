#!/usr/bin/env node
// The API report: the public surface of @gatehouse/sdk, @gatehouse/host and @gatehouse/testing, one
// Markdown file per package in api/, generated from each export entry's TypeScript source with the
// compiler API (what api-extractor does, without its weight). Every exported name with its
// declaration as a consumer sees it: signatures without bodies, classes without private members,
// constants with their types, doc comments left out (rewording a comment is not an API change).
//
//   node scripts/api-report.mjs          writes api/<pkg>.api.md
//   node scripts/api-report.mjs --check  fails, showing what changed, when a report is out of date
//
// A change to the public surface is then a visible diff in review; `pnpm api:check` runs in CI.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = ["packages/sdk", "packages/host", "packages/testing"];
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** The export entries of a package: subpath → source file (the `@gatehouse/source` condition). */
function entries(pkgDir) {
  const manifest = JSON.parse(readFileSync(join(root, pkgDir, "package.json"), "utf8"));
  const found = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const source = typeof target === "object" ? target["@gatehouse/source"] : undefined;
    if (source) found.push({ subpath, file: join(root, pkgDir, source) });
  }
  return { name: manifest.name, entries: found };
}

const isPrivate = (member) =>
  (member.name && ts.isPrivateIdentifier(member.name)) ||
  ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);

const f = ts.factory;

/** Parameters as a caller sees them: a default value makes a parameter optional, its value is not API. */
const params = (list) =>
  list.map((p) =>
    p.initializer
      ? f.updateParameterDeclaration(
          p,
          p.modifiers,
          p.dotDotDotToken,
          p.name,
          f.createToken(ts.SyntaxKind.QuestionToken),
          p.type,
          undefined,
        )
      : p,
  );

/** Modifiers without `async`: how a function is implemented is not its signature (the return type says Promise). */
const mods = (list) => list?.filter((m) => m.kind !== ts.SyntaxKind.AsyncKeyword);

/** A declaration as a consumer sees it: no bodies, no initializers, no private members. */
function surface(decl, checker) {
  const print = (node) => printer.printNode(ts.EmitHint.Unspecified, node, decl.getSourceFile());
  if (ts.isFunctionDeclaration(decl)) {
    return print(
      f.updateFunctionDeclaration(
        decl,
        mods(decl.modifiers),
        decl.asteriskToken,
        decl.name,
        decl.typeParameters,
        params(decl.parameters),
        decl.type,
        undefined,
      ),
    );
  }
  if (ts.isClassDeclaration(decl)) {
    const members = [];
    for (const m of decl.members) {
      if (isPrivate(m) || ts.isClassStaticBlockDeclaration(m) || ts.isSemicolonClassElement(m)) continue;
      if (ts.isMethodDeclaration(m)) {
        members.push(
          f.updateMethodDeclaration(
            m,
            mods(m.modifiers),
            m.asteriskToken,
            m.name,
            m.questionToken,
            m.typeParameters,
            params(m.parameters),
            m.type,
            undefined,
          ),
        );
      } else if (ts.isConstructorDeclaration(m)) {
        members.push(f.updateConstructorDeclaration(m, m.modifiers, params(m.parameters), undefined));
      } else if (ts.isPropertyDeclaration(m)) {
        const type =
          m.type ?? f.createTypeReferenceNode(checker.typeToString(checker.getTypeAtLocation(m), m, TYPE_FLAGS));
        members.push(f.updatePropertyDeclaration(m, m.modifiers, m.name, m.questionToken, type, undefined));
      } else if (ts.isGetAccessorDeclaration(m)) {
        members.push(f.updateGetAccessorDeclaration(m, m.modifiers, m.name, m.parameters, m.type, undefined));
      } else if (ts.isSetAccessorDeclaration(m)) {
        members.push(f.updateSetAccessorDeclaration(m, m.modifiers, m.name, m.parameters, undefined));
      } else members.push(m);
    }
    return print(
      f.updateClassDeclaration(decl, decl.modifiers, decl.name, decl.typeParameters, decl.heritageClauses, members),
    );
  }
  if (ts.isVariableDeclaration(decl)) {
    const type = decl.type ? print(decl.type) : checker.typeToString(checker.getTypeAtLocation(decl), decl, TYPE_FLAGS);
    const list = decl.parent;
    const keyword = list.flags & ts.NodeFlags.Const ? "const" : list.flags & ts.NodeFlags.Let ? "let" : "var";
    return `export declare ${keyword} ${decl.name.getText()}: ${type};`;
  }
  if (ts.isExportAssignment(decl)) {
    return `export default ${checker.typeToString(checker.getTypeAtLocation(decl.expression), decl, TYPE_FLAGS)};`;
  }
  return print(decl);
}

/** One program over every entry of every package: the checker is built once. */
function createProgram(files) {
  return ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["@gatehouse/source"],
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    skipLibCheck: true,
  });
}

/** The report of one package: every entry, every export sorted by name. */
function report(pkgDir, program) {
  const { name, entries: list } = entries(pkgDir);
  const checker = program.getTypeChecker();
  const lines = [
    `# API report: ${name}`,
    "",
    "Generated by `node scripts/api-report.mjs` from the package's export entries; do not edit.",
    "A diff here is a change to the public API: bump the version accordingly (SPEC §5).",
  ];
  for (const entry of list) {
    const source = program.getSourceFile(entry.file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`api-report: cannot read ${relative(root, entry.file)}`);
    const specifier = entry.subpath === "." ? name : `${name}/${entry.subpath.slice(2)}`;
    lines.push("", `## ${specifier}`, "", "```ts");
    const exports = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name));
    for (const exported of exports) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decls = symbol.declarations ?? [];
      // Overloads: the signatures, not the implementation.
      const shown = decls.filter((d) => !(ts.isFunctionDeclaration(d) && d.body && decls.length > 1));
      const alias =
        symbol.name !== exported.name && exported.name !== "default" ? ` // exported as ${exported.name}` : "";
      if (shown.length === 0) lines.push(`export ${exported.name}: unknown;`);
      for (const d of shown) {
        const from = d.getSourceFile().fileName;
        // Declarations from another package (zod's z, a re-exported type): named, not copied.
        if (from.includes("/node_modules/")) {
          lines.push(
            `export { ${exported.name} } from "${from.slice(from.lastIndexOf("/node_modules/") + 14).replace(/\/.*/, "")}";`,
          );
          break;
        }
        const text =
          exported.name === "default" && !ts.isExportAssignment(d)
            ? `// default export\n${surface(d, checker)}`
            : surface(d, checker);
        lines.push(`${text}${alias}`);
      }
    }
    lines.push("```");
  }
  return { name, file: join(root, "api", `${name.split("/").pop()}.api.md`), text: `${lines.join("\n")}\n` };
}

const check = process.argv.includes("--check");
let stale = 0;
const program = createProgram(PACKAGES.flatMap((pkg) => entries(pkg).entries.map((e) => e.file)));
for (const pkg of PACKAGES) {
  const { name, file, text: raw } = report(pkg, program);
  const rel = relative(root, file);
  // Formatted as Biome formats the repository (its Markdown code blocks included), so the file
  // stays unchanged by `pnpm format` and the report is readable.
  const text = execFileSync(join(root, "node_modules", ".bin", "biome"), ["format", `--stdin-file-path=${rel}`], {
    cwd: root,
    input: raw,
    encoding: "utf8",
  });
  const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
  if (before === text) continue;
  if (!check) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`api-report: wrote ${rel}`);
    continue;
  }
  stale++;
  const old = new Set((before ?? "").split("\n"));
  const now = new Set(text.split("\n"));
  console.error(
    `api-report: the public API of ${name} differs from ${rel}${before === undefined ? " (missing)" : ""}:`,
  );
  for (const l of (before ?? "").split("\n")) if (!now.has(l)) console.error(`  - ${l}`);
  for (const l of text.split("\n")) if (!old.has(l)) console.error(`  + ${l}`);
}
if (stale > 0) {
  console.error(
    "\nIf the change is intended, run `pnpm api:report` and commit api/ (and bump the version if it breaks).",
  );
  process.exit(1);
}

import { createRequire, isBuiltin } from "node:module";
import { extname } from "node:path";
import { errorMessage } from "../common/errors.ts";
import { readRegularFile } from "../common/read-regular-file.ts";
import { realOr } from "../common/real-or.ts";
import { isInside, isProjectFile } from "./code-origin.ts";
import { linkEscape } from "./link-escape.ts";
import { resolveLikeLoader, transpileForScan } from "./module-loader.ts";

const hostRequire = createRequire(import.meta.url);
const MAX_FILES = 5000;
const LEAVES = new Set([".json", ".node"]);

/** The project files an extension loads, as trust records them. */
export interface ImportGraph {
  /**
   * Real paths of the project files reached from the entry (the entry first), and of files outside
   * the project reached through a link inside it (those are project code too).
   */
  readonly files: readonly string[];
  /** How each file outside the project was reached: `lib/x.ts imports "./link" through the link ...`. */
  readonly links: readonly string[];
  /** The real files and folders outside the project that links inside it lead to (gated as project code). */
  readonly linkTargets: readonly string[];
  /** Imports that could not be followed; shown with the trust grant, never fatal. */
  readonly problems: readonly string[];
}

interface Token {
  type: unknown;
  start: number;
  end: number;
}

let parser:
  | { parse(code: string, jsx: boolean, ts: boolean, flow: boolean): { tokens: Token[] }; tt: Record<string, unknown> }
  | undefined;

/** The literal specifiers of `require("x")` and `jitiImport("x")` in transpiled code. */
export function requiredSpecifiers(code: string): string[] {
  parser ??= {
    parse: hostRequire("sucrase/dist/parser/index.js").parse,
    tt: hostRequire("sucrase/dist/parser/tokenizer/types.js").TokenType,
  };
  const { tokens } = parser.parse(code, false, false, false);
  const text = (t: Token) => code.slice(t.start, t.end);
  const specs: string[] = [];
  for (let i = 0; i + 3 < tokens.length; i++) {
    const [name, open, literal, close] = tokens.slice(i, i + 4) as [Token, Token, Token, Token];
    if (text(name) !== "require" && text(name) !== "jitiImport") continue;
    if (i > 0 && (tokens[i - 1] as Token).type === parser.tt.dot) continue;
    if (open.type !== parser.tt.parenL || literal.type !== parser.tt.string || close.type !== parser.tt.parenR)
      continue;
    const spec = unquote(text(literal));
    if (spec !== undefined) specs.push(spec);
  }
  return specs;
}

function unquote(literal: string): string | undefined {
  const inner = literal.slice(1, -1);
  if (!inner.includes("\\")) return inner;
  const double = literal.startsWith("'") ? `"${inner.replace(/\\'/g, "'").replace(/"/g, '\\"')}"` : literal;
  try {
    return JSON.parse(double) as string;
  } catch {
    return undefined;
  }
}

/**
 * Walks an extension's local import graph the way the loader resolves it: every literal import,
 * export-from, dynamic `import()` and `require()` of every project file reached, through the
 * project's own node_modules too. Files outside the project are not entered (they are not project
 * code) unless a link inside the project leads to them; JSON and native addons are leaves.
 * Contract: reads files, runs none. A specifier built at run time cannot be followed: the gate
 * refuses such a file when it is loaded unless another literal import reaches it.
 */
export function importGraph(
  entry: string,
  options: { projectReal: string; linkTargets?: readonly string[] },
): ImportGraph {
  const root = options.projectReal;
  const files: string[] = [];
  const links: string[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  // Code outside the project that a link inside it leads to: the linked file, or the linked folder.
  const linked = new Set<string>([realOr(entry), ...(options.linkTargets ?? [])]);
  const isLinked = (file: string) => [...linked].some((target) => isInside(target, file));
  const queue = [realOr(entry)];
  while (queue.length > 0 && files.length < MAX_FILES) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!isLinked(file) && !isProjectFile(file, root)) continue;
    files.push(file);
    if (LEAVES.has(extname(file))) continue;
    let specs: string[];
    try {
      specs = requiredSpecifiers(transpileForScan(readRegularFile(file, "utf8"), file));
    } catch (error) {
      problems.push(`${file}: its imports cannot be read (${errorMessage(error).split("\n")[0]})`);
      continue;
    }
    for (const spec of specs) {
      if (isBuiltin(spec)) continue;
      const resolved = resolveLikeLoader(spec, file);
      if (resolved === undefined) continue;
      const leak = linkEscape({ spec, parent: file, resolved, root });
      if (leak && !linked.has(leak.target)) {
        linked.add(leak.target);
        links.push(leak.reason);
      }
      queue.push(realOr(resolved));
    }
  }
  if (queue.length > 0) problems.push(`more than ${MAX_FILES} project files are imported; the rest are not trusted`);
  const linkTargets = [...linked].filter((target) => !isProjectFile(target, root));
  return { files, links, linkTargets, problems };
}

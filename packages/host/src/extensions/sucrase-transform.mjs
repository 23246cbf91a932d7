// A transform for jiti (plain JavaScript, so the CLI bootstrap can use it before any TypeScript
// is loaded). Types and contract: sucrase-transform.d.mts.
import { createRequire } from "node:module";

const hostRequire = createRequire(import.meta.url);
let sucrase;
let parser;

// jiti evaluates a module as `function (exports, require, module, __filename, __dirname, jitiImport,
// jitiESMResolve) { … }`; `import.meta` has no meaning there, so it becomes this object.
const IMPORT_META =
  "const __ghImportMeta = { url: require('node:url').pathToFileURL(__filename).href, filename: __filename, dirname: __dirname, resolve: (s) => jitiESMResolve(s) };";
const STRICT = '"use strict";';
// Spelled without the literal text: this file is itself transpiled by this transform.
const META_TEXT = ["import", "meta"].join(".");

// Part of every transpile-cache key: bump it when this transform's output changes, so a change
// here never meets output an older version wrote. Read when a file is first transpiled, not at
// import (a start that loads only built extensions never resolves sucrase).
let version;
export function transformVersion() {
  version ??= `sucrase-${hostRequire("sucrase/package.json").version}-3`;
  return version;
}

/** The [start, end) ranges of real `import.meta` expressions: tokens, never strings or comments. */
function metaRanges(source, ts) {
  parser ??= {
    parse: hostRequire("sucrase/dist/parser/index.js").parse,
    tt: hostRequire("sucrase/dist/parser/tokenizer/types.js").TokenType,
  };
  const { tokens } = parser.parse(source, false, ts, false);
  const ranges = [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [a, b, c] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    // sucrase reads the `import` of `import.meta` as a name token; strings and templates are other token types.
    const text = (t) => source.slice(t.start, t.end);
    if (text(a) === "import" && b.type === parser.tt.dot && text(c) === "meta") {
      ranges.push([a.start, c.end]);
    }
  }
  return ranges;
}

function replaceMeta(source, ts) {
  let out = source;
  for (const [start, end] of metaRanges(source, ts).reverse()) {
    out = `${out.slice(0, start)}__ghImportMeta${out.slice(end)}`;
  }
  return out === source ? undefined : out;
}

export function createFastTransform(fallback) {
  return (input) => {
    try {
      sucrase ??= hostRequire("sucrase");
      const rewritten = input.source.includes(META_TEXT) ? replaceMeta(input.source, input.ts === true) : undefined;
      const { code } = sucrase.transform(rewritten ?? input.source, {
        transforms: input.ts ? ["typescript", "imports"] : ["imports"],
        filePath: input.filename,
      });
      // ES modules are always strict (a write to a frozen object must throw): keep the directive first.
      const body = code.startsWith(STRICT) ? code.slice(STRICT.length) : code;
      return { code: `${STRICT}${rewritten === undefined ? "" : IMPORT_META}${body}` };
    } catch {
      return fallback(input);
    }
  };
}

import { createRequire } from "node:module";

/** What jiti hands a custom transform and expects back. */
export interface TransformInput {
  source: string;
  filename?: string;
  ts?: boolean;
  async?: boolean;
}

/** Transformed CommonJS code for jiti's evaluator. */
export interface TransformOutput {
  code: string;
  error?: unknown;
}

type Sucrase = { transform(code: string, options: Record<string, unknown>): { code: string } };

const hostRequire = createRequire(import.meta.url);
let sucrase: Sucrase | undefined;

// jiti evaluates a module as `function (exports, require, module, __filename, __dirname, jitiImport,
// jitiESMResolve) { … }`; `import.meta` has no meaning there, so it becomes this object.
const IMPORT_META =
  "const __ghImportMeta = { url: require('node:url').pathToFileURL(__filename).href, filename: __filename, dirname: __dirname, resolve: (s) => jitiESMResolve(s) };";

/**
 * A transform for jiti that strips types and turns ES modules into CommonJS with sucrase, several
 * times faster than jiti's Babel pipeline when nothing is cached yet (an extension's first load,
 * or the first load after an edit).
 * Contract: when sucrase cannot handle a file (syntax it does not know, or a genuine syntax
 * error), the result of `fallback` (Babel) is returned, so behaviour and error messages match
 * jiti's own. Dynamic `import()` becomes a synchronous require through jiti, TypeScript-only
 * imports are removed, and `import.meta.url`, `.filename`, `.dirname` and `.resolve` keep working.
 */
export function createFastTransform(fallback: (input: TransformInput) => TransformOutput) {
  return (input: TransformInput): TransformOutput => {
    try {
      sucrase ??= hostRequire("sucrase") as Sucrase;
      const usesMeta = input.source.includes("import.meta");
      const source = usesMeta ? input.source.replace(/\bimport\.meta\b/g, "__ghImportMeta") : input.source;
      const { code } = sucrase.transform(source, {
        transforms: input.ts ? ["typescript", "imports"] : ["imports"],
        filePath: input.filename,
      });
      return { code: usesMeta ? `${IMPORT_META}${code}` : code };
    } catch {
      return fallback(input);
    }
  };
}

// A transform for jiti (plain JavaScript, so the CLI bootstrap can use it before any TypeScript
// is loaded). Types: sucrase-transform.d.mts. See createFastTransform for the contract.
import { createRequire } from "node:module";

const hostRequire = createRequire(import.meta.url);
let sucrase;

// jiti evaluates a module as `function (exports, require, module, __filename, __dirname, jitiImport,
// jitiESMResolve) { … }`; `import.meta` has no meaning there, so it becomes this object.
const IMPORT_META =
  "const __ghImportMeta = { url: require('node:url').pathToFileURL(__filename).href, filename: __filename, dirname: __dirname, resolve: (s) => jitiESMResolve(s) };";

export function createFastTransform(fallback) {
  return (input) => {
    try {
      sucrase ??= hostRequire("sucrase");
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

/** What jiti hands a custom transform. */
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

/**
 * A transform for jiti that strips types and turns ES modules into CommonJS with sucrase, several
 * times faster than jiti's Babel pipeline when nothing is cached yet (a first run, or the first
 * load after an edit).
 * Contract: when sucrase cannot handle a file (syntax it does not know, or a genuine syntax
 * error), the result of `fallback` (Babel) is returned, so behaviour and error messages match
 * jiti's own. Dynamic `import()` becomes a require through jiti, TypeScript-only imports are
 * removed, and `import.meta.url`, `.filename`, `.dirname` and `.resolve` keep working.
 */
export function createFastTransform(
  fallback: (input: TransformInput) => TransformOutput,
): (input: TransformInput) => TransformOutput;

/** The version of this transform's output, part of every transpile-cache key. */
export function transformVersion(): string;

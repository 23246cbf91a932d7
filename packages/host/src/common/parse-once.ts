/**
 * The zod parse options of a schema that checks one value per start (a settings file, an
 * extension's configuration, a script): zod compiles a fast path for an object schema at its first
 * parse (code built with `new Function`), which costs far more than the single parse it speeds up.
 * The result and the issues are the same either way; schemas parsed often (tool arguments) keep it.
 */
export const PARSE_ONCE = { jitless: true } as const;

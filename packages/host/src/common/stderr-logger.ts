import { createRequire } from "node:module";
import type { Logger, pino as Pino } from "pino";
import { readyResolver } from "./resolver-stat.ts";

/**
 * A logger that creates the real one at its first use; `child()` stays lazy too (the child is made
 * from its parent when it is first used), so extensions can each be handed a bound child for free.
 */
function lazyLogger(make: () => Logger): Logger {
  let real: Logger | undefined;
  const target = () => {
    real ??= make();
    return real;
  };
  return new Proxy({} as Logger, {
    get(_shell, prop) {
      if (prop === "child") {
        return (...args: Parameters<Logger["child"]>) => lazyLogger(() => target().child(...args) as unknown as Logger);
      }
      const logger = target();
      const value: unknown = Reflect.get(logger, prop);
      return typeof value === "function" ? value.bind(logger) : value;
    },
    set: (_shell, prop, value) => Reflect.set(target(), prop, value),
    has: (_shell, prop) => Reflect.has(target(), prop),
  });
}

/** pino's own levels: any other level makes pino throw, which must happen at once, not at a first log line. */
const LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

/**
 * The host's logger: pino at `level`, writing synchronously to stderr.
 * Contract: behaves as `pino({ level }, pino.destination({ fd: 2, sync: true }))`, except that pino
 * (with its CommonJS dependencies, ~40 ms of a short command's start) is loaded only when the logger
 * or one of its children is first used; a command that never logs never loads it. A level pino does
 * not know throws pino's error here, as pino would.
 */
export function stderrLogger(options: { level: string }): Logger {
  const make = () => {
    readyResolver();
    const { pino } = createRequire(import.meta.url)("pino") as { pino: typeof Pino };
    return pino({ level: options.level }, pino.destination({ fd: 2, sync: true }));
  };
  return LEVELS.has(options.level) ? lazyLogger(make) : make();
}

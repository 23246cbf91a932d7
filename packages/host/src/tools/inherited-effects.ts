import type { AnyToolDefinition, ToolEffect } from "@gatehouse/sdk";

/** The arguments of `args` the built-in's schema does not take (what its effects cannot see). */
function foreignArguments(args: Record<string, unknown>, accepted: Record<string, unknown>): string[] {
  return Object.keys(args).filter((key) => args[key] !== undefined && !Object.hasOwn(accepted, key));
}

/**
 * The effects an override of `builtin` that declares none inherits: the built-in's, for a call whose
 * input is one the built-in itself takes. A call with an argument the built-in does not have (a
 * `cwd` the override resolves its path against, a renamed `file`, a list of paths) or of another
 * type is not described by them, so its effects cannot be determined and the call is blocked
 * (guards see effects only through this): an override that changes its input declares its effects.
 * Contract: throws, naming the tool and the argument, for such a call; else returns exactly what
 * the built-in's `effects` returns for it.
 */
export function inheritedEffects(builtin: AnyToolDefinition): (args: Record<string, unknown>) => ToolEffect[] {
  const effects = builtin.effects as (args: Record<string, unknown>) => ToolEffect[];
  const name = builtin.name;
  const unfit = (why: string) =>
    new Error(
      `tool ${name} overrides the built-in ${name} and declares no effects of its own, but ${why}, so the built-in's effects cannot say what the call touches; the tool must declare its effects`,
    );
  return (args) => {
    const parsed = builtin.parameters.safeParse(args);
    if (!parsed.success) throw unfit("this call's arguments are not ones the built-in takes");
    const foreign = foreignArguments(args, parsed.data as Record<string, unknown>);
    if (foreign.length > 0) {
      const list = foreign.map((key) => JSON.stringify(key)).join(", ");
      throw unfit(`the built-in has no argument ${list}`);
    }
    return effects(args);
  };
}

/**
 * The one description of a command: its flags, arguments, examples and exit codes. The parser
 * (`parseCommand`) and the help (`renderHelp`) both read it, so help cannot drift from what parses.
 */

/** One `--flag`. */
export interface FlagSpec {
  type: "string" | "boolean";
  /** Placeholder of a string flag's value in help and usage: FILE, DIR, N. */
  value?: string;
  /** A one-letter alias, without its dash. */
  short?: string;
  /** A string flag whose value may be left out (`--resume` alone or `--resume ID`). */
  optionalValue?: boolean;
  /** What it does, one sentence, lower case (help wraps it). */
  description: string;
}

/** A command's flags by long name (without `--`). */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** One positional argument. */
export interface PositionalSpec {
  name: string;
  description: string;
  /** Takes every remaining word (`gatehouse run fix the test`). */
  variadic?: boolean;
  /** Must be given; help shows it without brackets. */
  required?: boolean;
}

/** One exit code a command returns, besides the common ones of every command. */
export interface ExitCodeSpec {
  code: number;
  meaning: string;
}

/** A runnable example. */
export interface ExampleSpec {
  command: string;
  /** What it shows, when the command alone does not say it. */
  note?: string;
}

/** A command or subcommand. */
export interface CommandSpec<F extends FlagSpecs = FlagSpecs> {
  /** As typed after `gatehouse`: "run", "audit verify". */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Paragraphs shown under the usage in the command's own help. */
  details?: readonly string[];
  positionals?: readonly PositionalSpec[];
  flags: F;
  /** At least one; the first is the one the main help shows. */
  examples: readonly [ExampleSpec, ...ExampleSpec[]];
  /** Codes besides 0 and 2 (which every command has). */
  exitCodes?: readonly ExitCodeSpec[];
  /** `gatehouse audit verify|tail|stats`: the group's own flags are empty. */
  subcommands?: Readonly<Record<string, CommandSpec>>;
  /**
   * A command that runs on its own and also has a variant named by its first word
   * (`gatehouse init` and `gatehouse init extension NAME`): help, the main list and the exit-code
   * table show both; the variant parses its own flags.
   */
  variants?: Readonly<Record<string, CommandSpec>>;
}

/** Keeps a spec's flag literals (`type: "boolean"`) so parsed values are typed from it. */
export function defineCommand<const F extends FlagSpecs>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

/** The values `parseCommand` returns for flags `F`: booleans default to false, strings to undefined. */
export type FlagValues<F extends FlagSpecs> = {
  -readonly [K in keyof F]: F[K]["type"] extends "boolean" ? boolean : string | undefined;
};

/** The flags every command accepts on top of its own. */
export const HELP_FLAG: FlagSpec = { type: "boolean", short: "h", description: "show this help" };

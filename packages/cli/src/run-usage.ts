/** The usage line of `gatehouse run` (its own module: the help text must not load the run command). */
export const RUN_USAGE =
  "gatehouse run [prompt] (--script FILE | --model PROVIDER:MODEL [--base-url URL]) [--cwd DIR] [--json] [--sequential] [--max-turns N] [--trust] [--watch] [--session FILE [--continue | --branch ENTRY_ID]]";

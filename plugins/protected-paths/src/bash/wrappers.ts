import { parseArgs } from "./parse-args.ts";
import type { ShellWord } from "./shell-word.ts";

/** What a wrapper command runs: the wrapped command's words, nothing, or a reason it cannot be known. */
export type Unwrapped = { words: ShellWord[] } | { problem: string } | undefined;

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The placeholder for the arguments xargs reads from its input: unknowable before it runs. */
const XARGS_INPUT: ShellWord = {
  text: "",
  raw: "(arguments read by xargs)",
  glob: undefined,
  unresolved: "list of arguments read by xargs",
};

function after(args: readonly ShellWord[], spec: Parameters<typeof parseArgs>[1]) {
  return parseArgs(args, { ...spec, stopAtOperand: true });
}

/** Commands that run another command given as their arguments, with how to find it. */
export const WRAPPERS: Readonly<Record<string, (args: readonly ShellWord[]) => Unwrapped>> = {
  sudo: (args) => ({ words: after(args, { short: "ugCDhpUrtT", long: ["user", "group", "chdir"] }).operands }),
  doas: (args) => ({ words: after(args, { short: "uC" }).operands }),
  env: (args) => {
    const parsed = after(args, { short: "uCS", long: ["unset", "chdir", "split-string"] });
    if (["C", "chdir", "S", "split-string"].some((o) => parsed.values.has(o))) {
      return { problem: "env -C/-S changes what runs in a way the analysis does not follow" };
    }
    const words = [...parsed.operands];
    while (words[0] && ASSIGNMENT.test(words[0].raw)) words.shift();
    return { words };
  },
  nice: (args) => ({ words: after(args, { short: "n", long: ["adjustment"] }).operands }),
  nohup: (args) => ({ words: [...args] }),
  setsid: (args) => ({ words: after(args, {}).operands }),
  builtin: (args) => ({ words: [...args] }),
  busybox: (args) => ({ words: [...args] }),
  time: (args) => ({ words: after(args, {}).operands }),
  exec: (args) => ({ words: after(args, { short: "a" }).operands }),
  command: (args) => {
    const parsed = after(args, {});
    return parsed.flags.has("v") || parsed.flags.has("V") ? undefined : { words: parsed.operands };
  },
  timeout: (args) => ({ words: after(args, { short: "sk", long: ["signal", "kill-after"] }).operands.slice(1) }),
  stdbuf: (args) => ({ words: after(args, { short: "ioe", long: ["input", "output", "error"] }).operands }),
  xargs: (args) => {
    const parsed = after(args, {
      short: "IdEaLnPs",
      long: ["delimiter", "arg-file", "max-args", "max-procs", "max-chars"],
    });
    return { words: [...parsed.operands, XARGS_INPUT] };
  },
};

/** Shells whose `-c SCRIPT` is analysed like the outer command. */
export const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish"]);

/**
 * The script of `SHELL [options] -c SCRIPT`, or `undefined` when the shell runs a script file or
 * its input (not analysed).
 */
export function shellScript(args: readonly ShellWord[]): ShellWord | undefined {
  let command = false;
  for (let i = 0; i < args.length; i += 1) {
    const { text, unresolved } = args[i]!;
    const option = unresolved === undefined && /^[-+]./.test(text);
    if (!option) return command ? args[i] : undefined;
    if (text === "--") return command ? args[i + 1] : undefined;
    if (text.startsWith("--")) {
      if (text === "--rcfile" || text === "--init-file") i += 1;
      continue;
    }
    if (text.includes("c")) command = true;
    if (text.includes("o") || text.includes("O")) i += 1;
  }
  return undefined;
}

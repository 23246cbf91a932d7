import { literalWord, type ShellWord } from "./shell-word.ts";
import { type CommandEffects, type TargetSpec, targetsOf } from "./target-spec.ts";

const EXEC_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const FILE_ACTIONS = new Set(["-fprint", "-fprint0", "-fls", "-fprintf"]);

function startsExpression(word: ShellWord): boolean {
  return word.unresolved === undefined && (word.text.startsWith("-") || ["(", "!", ")", ","].includes(word.text));
}

function substitute(word: ShellWord, start: ShellWord): ShellWord {
  return {
    text: word.text.replaceAll("{}", start.text),
    raw: word.raw,
    glob: undefined,
    unresolved: word.unresolved ?? start.unresolved ?? (start.glob !== undefined ? "glob pattern" : undefined),
  };
}

/**
 * `find START... EXPRESSION`: the start paths are read; with `-delete` they are written
 * recursively; `-exec CMD {} ;` runs CMD with `{}` standing for the start paths (its write
 * targets then act recursively, since which files match is only known at run time);
 * `-fprint FILE` and friends write FILE.
 */
export function findEffects(args: readonly ShellWord[]): CommandEffects {
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d*|D)$/.test(args[i]!.text)) i += args[i]!.text === "-D" ? 2 : 1;
  const starts: ShellWord[] = [];
  while (i < args.length && !startsExpression(args[i]!)) starts.push(args[i++]!);
  if (starts.length === 0) starts.push(literalWord("."));
  const targets: TargetSpec[] = targetsOf("read", starts, "find");
  const commands: ShellWord[][] = [];
  for (; i < args.length; i += 1) {
    const action = args[i]!.text;
    if (action === "-delete") targets.push(...targetsOf("write", starts, "find -delete", true));
    else if (EXEC_ACTIONS.has(action)) {
      const inner: ShellWord[] = [];
      for (i += 1; i < args.length && args[i]!.text !== ";" && args[i]!.text !== "+"; i += 1) inner.push(args[i]!);
      for (const start of starts) commands.push(inner.map((w) => (w.text.includes("{}") ? substitute(w, start) : w)));
    } else if (FILE_ACTIONS.has(action)) {
      const file = args[i + 1];
      if (file) targets.push({ access: "write", word: file, via: `find ${action}` });
      i += action === "-fprintf" ? 2 : 1;
    }
  }
  return { targets, commands };
}

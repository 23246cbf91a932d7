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
    found: true,
  };
}

function endsExec(args: readonly ShellWord[], i: number): boolean {
  const text = args[i]!.text;
  return text === ";" || (text === "+" && args[i - 1]?.text === "{}");
}

/** find's tests and actions that read or write nothing beyond the paths it walks (value-taking ones map to true). */
const FIND_PRIMARIES: ReadonlyMap<string, boolean> = new Map([
  ...["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-regextype"].map(
    (p) => [p, true] as const,
  ),
  ...["-type", "-xtype", "-maxdepth", "-mindepth", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin"].map(
    (p) => [p, true] as const,
  ),
  ...["-size", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum", "-newer", "-printf", "-samefile"].map(
    (p) => [p, true] as const,
  ),
  ...["-newermt", "-newerct", "-newerat", "-newermm", "-anewer", "-cnewer", "-used"].map((p) => [p, true] as const),
  ...["-empty", "-readable", "-writable", "-executable", "-nouser", "-nogroup", "-true", "-false", "-not"].map(
    (p) => [p, false] as const,
  ),
  ...["-and", "-or", "-a", "-o", "-prune", "-print", "-print0", "-ls", "-delete", "-depth", "-d", "-xdev"].map(
    (p) => [p, false] as const,
  ),
  ...["-mount", "-follow", "-noleaf", "-ignore_readdir_race", "-daystart", "-quit", "-L", "-H", "-P"].map(
    (p) => [p, false] as const,
  ),
]);

/**
 * Why find cannot run unconfined with these arguments: a primary outside `FIND_PRIMARIES`
 * (`-fprint FILE`, `-files0-from FILE`, `-fls`…) reads or writes a file the walk does not show.
 */
export function findProblem(args: readonly ShellWord[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    // Following links, a walk's writes (-delete, -exec) reach what they lead to, out of the tree.
    if (word.unresolved === undefined && (word.text === "-L" || word.text === "-H" || word.text === "-follow")) {
      return `find ${word.text} follows symbolic links, so what it deletes or hands to a command may lie outside the tree`;
    }
    if (word.unresolved !== undefined || !word.text.startsWith("-") || word.text === "-") continue;
    if (EXEC_ACTIONS.has(word.text)) {
      for (i += 1; i < args.length && !endsExec(args, i); i += 1);
      continue;
    }
    const takesValue = FIND_PRIMARIES.get(word.text);
    if (takesValue === undefined) return `find ${word.text} is not a test or action the analysis models`;
    if (takesValue) i += 1;
  }
  return undefined;
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
      // `;` ends the command; `+` only right after `{}` (`-exec cat + .env ;` passes `+` and `.env` to cat).
      for (i += 1; i < args.length && !endsExec(args, i); i += 1) inner.push(args[i]!);
      // find puts each path it finds wherever `{}` stands, inside longer words too (`{}v` is
      // `./.env` for `./.en`), and -execdir runs the command in the found file's folder: both
      // are only known as it runs.
      const elsewhere = action === "-execdir" || action === "-okdir";
      const unknown = (w: ShellWord, why: string): ShellWord => ({ ...w, glob: undefined, unresolved: why });
      for (const start of starts) {
        commands.push(
          inner.map((w) => {
            if (elsewhere) return unknown(w, `folder find ${action} runs it in`);
            if (w.text === "{}") return substitute(w, start);
            return w.text.includes("{}") ? unknown(w, "path find puts into {}") : w;
          }),
        );
      }
    } else if (FILE_ACTIONS.has(action)) {
      const file = args[i + 1];
      if (file) targets.push({ access: "write", word: file, via: `find ${action}` });
      i += action === "-fprintf" ? 2 : 1;
    }
  }
  return { targets, commands };
}

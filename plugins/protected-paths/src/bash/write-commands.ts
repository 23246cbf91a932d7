import path from "node:path";
import { SORT_SPEC, UNIQ_SPEC } from "./option-specs.ts";
import { type ArgSpec, hasFlag, optionValue, parseArgs } from "./parse-args.ts";
import { literalWord, partOf, type ShellWord } from "./shell-word.ts";
import { type CommandEffects, type CommandExtractor, type TargetSpec, targetsOf } from "./target-spec.ts";

/** Every operand is written; `recursiveFlags` make it act on a whole tree. */
function operandsWritten(via: string, spec: ArgSpec = {}, recursiveFlags: string[] = []): CommandExtractor {
  return (args) => {
    const parsed = parseArgs(args, spec);
    return { targets: targetsOf("write", parsed.operands, via, hasFlag(parsed, ...recursiveFlags)) };
  };
}

/**
 * What a new link stands for: writes through it land on its target, so the target is checked as a
 * write (`ln -s .env x && echo > x` must not pass because `x` did not exist yet). A relative
 * symbolic target is relative to the link's directory — `dest` itself or its parent, both checked.
 */
function linkTargets(sources: readonly ShellWord[], dest: ShellWord, symbolic: boolean): TargetSpec[] {
  return sources.flatMap((source) => {
    if (!symbolic || path.isAbsolute(source.text) || source.unresolved !== undefined) {
      return targetsOf("write", [source], "link target").map((t) => ({ ...t, creates: true }));
    }
    // A glob in the target expands against the cwd first (`ln -s .en? l` links to `.env`): its
    // matches are checked, and the link's own text, joined below, cannot be known.
    const matches = source.glob === undefined ? [] : targetsOf("write", [source], "link target");
    const joined = source.glob === undefined ? dest : partOf(source, dest.text);
    // Joined as written, not normalised: `..` after a folder that is a symbolic link leads where
    // the link leads (`ln -s .. a/lm/r` with a/lm -> ../m links m/r to the project), and the
    // checker resolves it as the kernel will.
    const inside = {
      ...targetsOf("write", [partOf(joined, `${dest.text}/${source.text}`)], "link target")[0]!,
      onlyIfFolder: dest.text,
    };
    const beside = targetsOf("write", [partOf(joined, `${path.dirname(dest.text)}/${source.text}`)], "link target");
    return [...matches, inside, ...beside].map((t) => ({ ...t, creates: true }));
  });
}

/** cp, mv, ln, install: `SRC... DEST`, `-t DIR SRC...`, a lone `ln TARGET` links into the cwd. */
function copyLike(name: "cp" | "mv" | "ln" | "install", spec: ArgSpec): CommandExtractor {
  return (args) => {
    const parsed = parseArgs(args, spec);
    if (name === "install" && hasFlag(parsed, "d", "directory")) {
      return { targets: targetsOf("write", parsed.operands, "install -d") };
    }
    const targetDir = optionValue(parsed, "t", "target-directory");
    const ops = parsed.operands;
    let dest: ShellWord | undefined = targetDir;
    let sources = ops;
    if (!dest && ops.length >= 2) {
      dest = ops[ops.length - 1];
      sources = ops.slice(0, -1);
    } else if (!dest && name === "ln" && ops.length === 1) dest = literalWord(".");
    const targets: TargetSpec[] = [];
    if (name === "mv") targets.push(...targetsOf("write", sources, "mv source", true));
    // A tree copied whole reads every file below it (`cp -a . sub` copies `.env` too).
    const tree = name === "cp" && hasFlag(parsed, "r", "R", "a", "recursive", "archive");
    // A hard link is another name of its source: reading it later reads the source.
    const hard = name === "ln" && !hasFlag(parsed, "s", "symbolic");
    if (name !== "ln" || hard) targets.push(...targetsOf("read", sources, `${name} source`, tree));
    if (dest) {
      const into = hasFlag(parsed, "T", "no-target-directory")
        ? undefined
        : { sources, forced: targetDir !== undefined || sources.length > 1 };
      // A link, a moved entry, a copied tree or a link copied as a link (`cp -P`, `-d`,
      // `--preserve=links`) brings contents no check of the destination saw.
      const linksKept =
        name === "cp" &&
        (hasFlag(parsed, "P", "d", "no-dereference") || args.some((a) => /^--preserve=.*\b(links|all)\b/.test(a.text)));
      const creates = name === "ln" || name === "mv" || tree || linksKept;
      targets.push({
        access: "write",
        word: dest,
        via: `${name} destination`,
        // A hard link of a symbolic link is the link again, in a new folder (`ln a/b/l l2`).
        ...(name === "mv" || name === "cp" || (name === "ln" && !hasFlag(parsed, "s", "symbolic"))
          ? { from: sources }
          : {}),
        ...(creates ? { creates } : {}),
        ...(into ? { into } : {}),
      });
      if (name === "ln") targets.push(...linkTargets(sources, dest, hasFlag(parsed, "s", "symbolic")));
    }
    return { targets };
  };
}

function dd(args: readonly ShellWord[]): CommandEffects {
  const targets: TargetSpec[] = [];
  for (const word of args) {
    if (word.text.startsWith("of="))
      targets.push({ access: "write", word: partOf(word, word.text.slice(3)), via: "dd of=" });
    if (word.text.startsWith("if="))
      targets.push({ access: "read", word: partOf(word, word.text.slice(3)), via: "dd if=" });
  }
  return { targets };
}

function sort(args: readonly ShellWord[]): CommandEffects {
  const parsed = parseArgs(args, SORT_SPEC);
  const output = optionValue(parsed, "o", "output");
  return {
    targets: [
      ...targetsOf("read", parsed.operands, "sort input"),
      ...(output ? targetsOf("write", [output], "sort -o") : []),
    ],
  };
}

function uniq(args: readonly ShellWord[]): CommandEffects {
  const parsed = parseArgs(args, UNIQ_SPEC);
  const [input, output] = parsed.operands;
  return {
    targets: [
      ...(input ? targetsOf("read", [input], "uniq input") : []),
      ...(output ? targetsOf("write", [output], "uniq output") : []),
    ],
  };
}

/**
 * Finds `letter`'s value in short clusters where every letter before it is a boolean flag of the
 * command (`curl -sSLo FILE`), plus the long forms.
 */
function downloadOutputs(
  args: readonly ShellWord[],
  options: { letters: string; booleans: string; long: string[]; via: string },
): CommandEffects {
  const targets: TargetSpec[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const { text } = args[i]!;
    const eq = text.indexOf("=");
    const long = options.long.find((l) => text === `--${l}` || text.startsWith(`--${l}=`));
    let value: ShellWord | undefined;
    if (long !== undefined) value = eq === -1 ? args[i + 1] : partOf(args[i]!, text.slice(eq + 1));
    else if (/^-[^-]/.test(text)) {
      const at = [...text.slice(1)].findIndex((c) => !options.booleans.includes(c));
      const letter = text[at + 1];
      if (at !== -1 && letter !== undefined && options.letters.includes(letter)) {
        const rest = text.slice(at + 2);
        value = rest.length > 0 ? partOf(args[i]!, rest) : args[i + 1];
      }
    }
    if (value && value.text !== "-") targets.push({ access: "write", word: value, via: options.via });
  }
  return { targets };
}

/** cp, mv and ln: the options that take a value. */
const COPY_SPEC: ArgSpec = { short: "tS", long: ["target-directory", "suffix"] };

/** Commands whose write targets the analysis knows, by command name. */
export const WRITE_COMMANDS: Readonly<Record<string, CommandExtractor>> = {
  rm: operandsWritten("rm", { flags: ["recursive"] }, ["r", "R", "recursive"]),
  rmdir: operandsWritten("rmdir"),
  unlink: operandsWritten("unlink"),
  shred: operandsWritten("shred", { short: "ns", long: ["iterations", "size", "random-source"] }),
  mkdir: operandsWritten("mkdir", { short: "m", long: ["mode"] }),
  touch: operandsWritten("touch", { short: "rdt", long: ["reference", "date", "time"] }),
  truncate: operandsWritten("truncate", { short: "sr", long: ["size", "reference"] }),
  tee: operandsWritten("tee"),
  // Every operand, the mode or owner included: checking "u+x" as a path is harmless, and it stays
  // right when a mode like "-w" is mistaken for an option.
  chmod: operandsWritten("chmod", { long: ["reference"], flags: ["recursive"] }, ["R", "recursive"]),
  chown: operandsWritten("chown", { long: ["reference", "from"], flags: ["recursive"] }, ["R", "recursive"]),
  chgrp: operandsWritten("chgrp", { long: ["reference"], flags: ["recursive"] }, ["R", "recursive"]),
  cp: copyLike("cp", { ...COPY_SPEC, flags: ["recursive", "archive", "no-target-directory"] }),
  mv: copyLike("mv", { ...COPY_SPEC, flags: ["no-target-directory"] }),
  ln: copyLike("ln", { ...COPY_SPEC, flags: ["symbolic", "no-target-directory"] }),
  install: copyLike("install", {
    short: "mogSt",
    long: ["mode", "owner", "group", "suffix", "target-directory", "strip-program"],
  }),
  dd,
  sort,
  uniq,
  curl: (args) =>
    downloadOutputs(args, {
      letters: "ocD",
      booleans: "sSLkfvigGIjJlnNpRZ0123456#",
      long: ["output", "cookie-jar", "dump-header", "trace", "trace-ascii", "stderr"],
      via: "curl output",
    }),
  wget: (args) =>
    downloadOutputs(args, {
      letters: "OoaP",
      booleans: "qvcNrkKpnbxS46",
      long: ["output-document", "output-file", "append-output", "directory-prefix"],
      via: "wget output",
    }),
};

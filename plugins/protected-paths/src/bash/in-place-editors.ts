import path from "node:path";
import { isOption } from "./parse-args.ts";
import { partOf, type ShellWord } from "./shell-word.ts";
import { type CommandEffects, type TargetSpec, targetsOf } from "./target-spec.ts";

/** What an in-place editor's options said. */
interface EditorArgs {
  inPlace: boolean;
  /** Backup suffix (`-i.bak`); `*` in it stands for the file's basename. */
  suffix: string;
  /** A script was given by option (-e/-f), so every operand is a file. */
  scriptGiven: boolean;
  /** Files the options read (`sed -f SCRIPT`). */
  reads: ShellWord[];
  operands: ShellWord[];
}

function backupOf(file: ShellWord, suffix: string): ShellWord {
  // With a `/` in it, GNU sed puts the file's whole given path where `*` stands (`-i'.git/*'`
  // on `hooks/pre-commit` makes `.git/hooks/pre-commit`): refused as not known before it runs.
  if (suffix.includes("/")) {
    return { ...partOf(file, file.text + suffix), unresolved: "backup path sed builds from a suffix with a /" };
  }
  if (!suffix.includes("*")) return partOf(file, file.text + suffix);
  const name = suffix.replaceAll("*", path.basename(file.text));
  return partOf(file, name.includes("/") ? name : path.join(path.dirname(file.text), name));
}

function effectsOf(name: string, parsed: EditorArgs): CommandEffects {
  const files = parsed.scriptGiven ? parsed.operands : parsed.operands.slice(1);
  const targets: TargetSpec[] = [
    ...targetsOf("read", parsed.reads, `${name} script`),
    ...targetsOf("read", files, name),
  ];
  if (parsed.inPlace) {
    targets.push(...targetsOf("write", files, `${name} -i`));
    if (parsed.suffix)
      targets.push(
        ...targetsOf(
          "write",
          files.map((f) => backupOf(f, parsed.suffix)),
          `${name} -i backup`,
        ),
      );
  }
  return { targets };
}

/**
 * Parses one short cluster of sed or perl: `i` takes the rest of the cluster as the backup suffix,
 * `valueLetters` take the rest or the next word; returns how many extra words were consumed.
 */
function cluster(
  word: ShellWord,
  next: ShellWord | undefined,
  out: EditorArgs,
  letters: { script: string; reads: string; attached: string },
): number {
  for (let j = 1; j < word.text.length; j += 1) {
    const c = word.text[j]!;
    const rest = word.text.slice(j + 1);
    if (c === "i") {
      out.inPlace = true;
      out.suffix = rest;
      return 0;
    }
    if (letters.script.includes(c) || letters.reads.includes(c)) {
      if (letters.script.includes(c)) out.scriptGiven = true;
      const value = rest.length > 0 ? partOf(word, rest) : next;
      if (value && letters.reads.includes(c)) out.reads.push(value);
      return rest.length > 0 ? 0 : 1;
    }
    if (letters.attached.includes(c)) return 0;
  }
  return 0;
}

function parseEditor(
  args: readonly ShellWord[],
  letters: { script: string; reads: string; attached: string; valueLong: string[] },
): EditorArgs {
  const out: EditorArgs = { inPlace: false, suffix: "", scriptGiven: false, reads: [], operands: [] };
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.text === "--" && word.unresolved === undefined) {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (!isOption(word)) out.operands.push(word);
    else if (word.text.startsWith("--")) {
      const [name, value] = word.text.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (name === "in-place") {
        out.inPlace = true;
        out.suffix = value ?? "";
      } else if (name === "expression" || name === "file") {
        out.scriptGiven = true;
        const script = value === undefined ? args[++i] : partOf(word, value);
        if (name === "file" && script) out.reads.push(script);
      } else if (value === undefined && letters.valueLong.includes(name)) i += 1;
    } else i += cluster(word, args[i + 1], out, letters);
  }
  return out;
}

/** `sed [-i[SUFFIX]] [-e SCRIPT | -f FILE | SCRIPT] FILE...`: files are written only in place. */
export function sedEffects(args: readonly ShellWord[]): CommandEffects {
  return effectsOf("sed", parseEditor(args, { script: "ef", reads: "f", attached: "l", valueLong: ["line-length"] }));
}

/** `perl [-i[EXT]] [-e CODE | SCRIPT] FILE...`: `-pi.bak`, `-0777`, `-Mmod` handled. */
export function perlEffects(args: readonly ShellWord[]): CommandEffects {
  return effectsOf("perl", parseEditor(args, { script: "eE", reads: "", attached: "MmIxdDCFl0", valueLong: [] }));
}

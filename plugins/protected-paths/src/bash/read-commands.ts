import { DIFF_SPEC, GREP_SPEC, RG_SPEC } from "./option-specs.ts";
import { type ArgSpec, parseArgs } from "./parse-args.ts";
import type { CommandExtractor } from "./target-spec.ts";
import { targetsOf } from "./target-spec.ts";

/** Every operand is read. */
function operandsRead(via: string, spec: ArgSpec = {}): CommandExtractor {
  return (args) => ({ targets: targetsOf("read", parseArgs(args, spec).operands, via) });
}

/** The first operand is a pattern or program unless one was given by option; the rest are read. */
function patternThenFiles(
  via: string,
  spec: ArgSpec,
  patternOptions: string[],
  fileOptions: string[],
): CommandExtractor {
  return (args) => {
    const parsed = parseArgs(args, spec);
    const given = patternOptions.some((o) => parsed.values.has(o));
    const files = given ? parsed.operands : parsed.operands.slice(1);
    const optionFiles = fileOptions.flatMap((o) => parsed.values.get(o) ?? []);
    return { targets: targetsOf("read", [...optionFiles, ...files], via) };
  };
}

const grep = patternThenFiles("grep", GREP_SPEC, ["e", "f", "regexp", "file"], ["f", "file"]);

const ripgrep = patternThenFiles("rg", RG_SPEC, ["e", "f", "regexp", "file"], ["f", "file"]);

const awk = patternThenFiles("awk", { short: "fvF" }, ["f"], ["f"]);

/** `source FILE [ARGS]`: only the file is read. */
const source: CommandExtractor = (args) => {
  const [file] = parseArgs(args, { stopAtOperand: true }).operands;
  return { targets: file ? targetsOf("read", [file], "source") : [] };
};

const head = operandsRead("head", { short: "nc", long: ["lines", "bytes"] });
const tail = operandsRead("tail", { short: "ncs", long: ["lines", "bytes", "sleep-interval", "pid"] });

/**
 * diff: its operands and `--from-file`/`--to-file` are read, as whole trees: a directory operand
 * compares the files in it even without `-r` (`diff -N . src` prints `.env` whole).
 */
const diff: CommandExtractor = (args) => {
  const parsed = parseArgs(args, DIFF_SPEC);
  const named = [...(parsed.values.get("from-file") ?? []), ...(parsed.values.get("to-file") ?? [])];
  return { targets: targetsOf("read", [...named, ...parsed.operands], "diff", true) };
};

/** Commands whose read targets the analysis knows (best effort, for `denyRead`). */
export const READ_COMMANDS: Readonly<Record<string, CommandExtractor>> = {
  cat: operandsRead("cat"),
  tac: operandsRead("tac"),
  nl: operandsRead("nl", { short: "bdfhilnsvw" }),
  less: operandsRead("less"),
  more: operandsRead("more"),
  head,
  tail,
  wc: operandsRead("wc"),
  strings: operandsRead("strings", { short: "nt" }),
  xxd: operandsRead("xxd", { short: "cglos" }),
  od: operandsRead("od", { short: "AjNtS" }),
  hexdump: operandsRead("hexdump", { short: "ensf" }),
  base64: operandsRead("base64", { short: "w" }),
  md5sum: operandsRead("md5sum"),
  sha1sum: operandsRead("sha1sum"),
  sha256sum: operandsRead("sha256sum"),
  sha512sum: operandsRead("sha512sum"),
  diff,
  cmp: operandsRead("cmp"),
  file: operandsRead("file"),
  grep,
  egrep: grep,
  fgrep: grep,
  rg: ripgrep,
  awk,
  gawk: awk,
  source,
  ".": source,
};

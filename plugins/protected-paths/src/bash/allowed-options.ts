import type { ShellWord } from "./shell-word.ts";

/** The options of one command an unconfined run may use: the ones whose effects the analysis models. */
interface AllowedOptions {
  /** Short options without a value. */
  flags: string;
  /** Short options that take a value (the rest of the cluster or the next word). */
  values?: string;
  /** Short options whose value, if any, is the rest of the cluster only (`sed -i.bak`). */
  attached?: string;
  /** Long options, spelled out in full (`--name` or `--name=value`). */
  long?: readonly string[];
  /** Long options that take the next word as their value when no `=` is given. */
  longValues?: readonly string[];
  /** `-NUM` is a count (`head -20`). */
  digits?: boolean;
  /** Words like `-w` or `+x` are operands (chmod's modes), not options. */
  modes?: boolean;
  /** The first operand ends the options (the rest is a command). */
  stopAtOperand?: boolean;
}

const NUMBER_LINES = ["lines", "bytes", "quiet", "silent", "verbose", "zero-terminated"];

/**
 * Per command, the options whose effects the unconfined analysis models. Anything else — an option
 * that names a file to read or write (`xargs -a`, `file -m`, `wc --files0-from`, `cp -S`), makes
 * links (`cp -s`, `cp -l`), runs a program (`rg --pre`, `sort --compress-program`) or is an
 * abbreviation of one (GNU tools accept `--in-pl` for `--in-place`) — is refused: a command that
 * runs outside any sandbox may only do what its words show.
 */
const ALLOWED: Readonly<Record<string, AllowedOptions>> = {
  cat: {
    flags: "AbeEnstTuv",
    long: ["show-all", "number-nonblank", "show-ends", "number", "squeeze-blank", "show-tabs", "show-nonprinting"],
  },
  tac: { flags: "br", values: "s", long: ["before", "regex", "separator"], longValues: ["separator"] },
  nl: { flags: "p", values: "bdfhilnsvw" },
  head: { flags: "qvz", values: "nc", digits: true, long: NUMBER_LINES, longValues: ["lines", "bytes"] },
  tail: {
    flags: "fFqvz",
    values: "ncs",
    digits: true,
    long: [...NUMBER_LINES, "follow", "retry", "sleep-interval"],
    longValues: ["lines", "bytes", "sleep-interval"],
  },
  wc: { flags: "clmwL", long: ["bytes", "chars", "lines", "words", "max-line-length", "total"] },
  strings: { flags: "afw", values: "nt", long: ["all", "bytes", "radix"], longValues: ["bytes", "radix"] },
  od: { attached: "w", flags: "bcdfilosvx", values: "AjNtS" },
  hexdump: { flags: "bcCdovx", values: "ens" },
  base64: { flags: "di", values: "w", long: ["decode", "ignore-garbage", "wrap"], longValues: ["wrap"] },
  md5sum: { flags: "btz", long: ["binary", "tag", "text", "zero"] },
  sha1sum: { flags: "btz", long: ["binary", "tag", "text", "zero"] },
  sha256sum: { flags: "btz", long: ["binary", "tag", "text", "zero"] },
  sha512sum: { flags: "btz", long: ["binary", "tag", "text", "zero"] },
  diff: {
    flags: "iEZbwBaTtlrNspqyuc",
    values: "CUIFLWx",
    long: [
      "from-file",
      "to-file",
      "recursive",
      "new-file",
      "brief",
      "report-identical-files",
      "side-by-side",
      "unified",
      "context",
      "ignore-case",
      "ignore-all-space",
      "ignore-space-change",
      "ignore-blank-lines",
      "text",
      "color",
      "label",
      "exclude",
      "ignore-matching-lines",
      "suppress-common-lines",
      "expand-tabs",
      "initial-tab",
      "minimal",
      "no-dereference",
      "stat",
      "ignore-trailing-space",
      "strip-trailing-cr",
      "width",
      "tabsize",
    ],
    longValues: ["from-file", "to-file", "label", "exclude", "ignore-matching-lines", "width", "tabsize"],
  },
  cmp: {
    longValues: ["bytes", "ignore-initial"],
    flags: "blsz",
    values: "in",
    long: ["print-bytes", "verbose", "quiet", "silent", "bytes", "ignore-initial"],
  },
  file: {
    flags: "bcELhiklNnprsvz0",
    long: ["brief", "mime", "mime-type", "mime-encoding", "dereference", "no-dereference", "keep-going", "raw"],
  },
  grep: {
    flags: "EFGPiwxyvcLlqsbHhnoTZzrRUaI",
    values: "efmABCdD",
    long: [
      "extended-regexp",
      "fixed-strings",
      "basic-regexp",
      "perl-regexp",
      "regexp",
      "file",
      "ignore-case",
      "no-ignore-case",
      "word-regexp",
      "line-regexp",
      "null-data",
      "invert-match",
      "count",
      "color",
      "colour",
      "files-with-matches",
      "files-without-match",
      "max-count",
      "only-matching",
      "quiet",
      "silent",
      "no-messages",
      "byte-offset",
      "with-filename",
      "no-filename",
      "line-number",
      "initial-tab",
      "null",
      "before-context",
      "after-context",
      "context",
      "text",
      "binary-files",
      "directories",
      "exclude",
      "exclude-dir",
      "include",
      "recursive",
      "dereference-recursive",
      "line-buffered",
    ],
    longValues: [
      "regexp",
      "file",
      "max-count",
      "before-context",
      "after-context",

      "directories",
      "exclude",
      "exclude-dir",
      "include",
      "binary-files",
      "label",
    ],
  },
  rg: {
    flags: "iIsSwxvcloqnNHhuLFab.p0UP",
    values: "efgmABCtTMjEr",
    long: [
      "regexp",
      "file",
      "glob",
      "iglob",
      "type",
      "type-not",
      "ignore-case",
      "smart-case",
      "case-sensitive",
      "word-regexp",
      "line-regexp",
      "invert-match",
      "count",
      "count-matches",
      "files-with-matches",
      "files-without-match",
      "files",
      "only-matching",
      "quiet",
      "line-number",
      "no-line-number",
      "with-filename",
      "no-filename",
      "hidden",
      "no-ignore",
      "unrestricted",
      "follow",
      "fixed-strings",
      "text",
      "max-count",
      "max-depth",
      "context",
      "before-context",
      "after-context",
      "color",
      "heading",
      "no-heading",
      "vimgrep",
      "json",
      "multiline",
      "trim",
      "sort",
      "sortr",
      "stats",
      "column",
      "null",
      "pcre2",
      "replace",
      "passthru",
      "max-columns",
      "no-messages",
      "no-ignore-vcs",
      "glob-case-insensitive",
    ],
    longValues: [
      "regexp",
      "file",
      "glob",
      "iglob",
      "type",
      "type-not",
      "max-count",
      "max-depth",
      "context",
      "before-context",
      "after-context",
      "replace",
      "max-columns",
      "sort",
      "sortr",
    ],
  },
  sed: {
    flags: "nErusz",
    attached: "i",
    values: "e",
    long: [
      "quiet",
      "silent",
      "expression",
      "in-place",
      "regexp-extended",
      "separate",
      "unbuffered",
      "null-data",
      "posix",
      "debug",
      "sandbox",
    ],
    longValues: ["expression"],
  },
  rm: { flags: "fiIrRdv", long: ["force", "interactive", "recursive", "dir", "verbose", "one-file-system"] },
  rmdir: { flags: "pv", long: ["parents", "verbose", "ignore-fail-on-non-empty"] },
  unlink: { flags: "" },
  shred: { flags: "fuvxz", values: "ns", long: ["force", "remove", "size", "iterations", "verbose", "exact", "zero"] },
  mkdir: { flags: "pv", values: "m", long: ["parents", "verbose", "mode"], longValues: ["mode"] },
  touch: {
    flags: "acfhm",
    values: "dtr",
    long: ["date", "no-create", "no-dereference", "reference", "time"],
    longValues: ["date", "reference", "time"],
  },
  truncate: {
    flags: "co",
    values: "sr",
    long: ["no-create", "io-blocks", "size", "reference"],
    longValues: ["size", "reference"],
  },
  tee: { flags: "aip", long: ["append", "ignore-interrupts"] },
  chmod: {
    longValues: ["reference"],
    flags: "cfvR",
    modes: true,
    long: ["changes", "silent", "quiet", "verbose", "recursive", "reference"],
  },
  // -H and -L make a recursive walk follow links out of the tree.
  chown: {
    longValues: ["from", "reference"],
    flags: "cfvRhP",
    long: ["changes", "silent", "quiet", "verbose", "recursive", "dereference", "no-dereference", "from", "reference"],
  },
  chgrp: {
    longValues: ["reference"],
    flags: "cfvRhP",
    long: ["changes", "silent", "quiet", "verbose", "recursive", "dereference", "no-dereference", "reference"],
  },
  cp: {
    flags: "aRrfinuvpPLHxT",
    values: "t",
    long: [
      "archive",
      "recursive",
      "force",
      "interactive",
      "no-clobber",
      "update",
      "verbose",
      "preserve",
      "no-preserve",
      "no-dereference",
      "dereference",
      "one-file-system",
      "no-target-directory",
      "target-directory",
      "reflink",
      "sparse",
      "strip-trailing-slashes",
    ],
    longValues: ["target-directory"],
  },
  mv: {
    flags: "finuvT",
    values: "t",
    long: [
      "force",
      "interactive",
      "no-clobber",
      "update",
      "verbose",
      "no-target-directory",
      "target-directory",
      "strip-trailing-slashes",
    ],
    longValues: ["target-directory"],
  },
  // --relative computes the link's text from the cwd, not from the link's folder: not modelled.
  ln: {
    flags: "sfnvTLP",
    values: "t",
    long: [
      "symbolic",
      "force",
      "no-dereference",
      "verbose",
      "no-target-directory",
      "target-directory",
      "logical",
      "physical",
    ],
    longValues: ["target-directory"],
  },
  dd: { flags: "" },
  sort: {
    flags: "bdfgiMhnRrVcCmsuz",
    values: "kotTS",
    long: [
      "ignore-leading-blanks",
      "dictionary-order",
      "ignore-case",
      "general-numeric-sort",
      "ignore-nonprinting",
      "month-sort",
      "human-numeric-sort",
      "numeric-sort",
      "random-sort",
      "reverse",
      "version-sort",
      "check",
      "merge",
      "stable",
      "unique",
      "zero-terminated",
      "key",
      "output",
      "field-separator",
      "buffer-size",
      "temporary-directory",
      "parallel",
    ],
    longValues: ["key", "output", "field-separator", "buffer-size", "temporary-directory", "parallel"],
  },
  uniq: {
    flags: "cdDiuz",
    values: "fsw",
    long: ["count", "repeated", "all-repeated", "ignore-case", "unique", "zero-terminated", "group"],
  },
  ls: {
    longValues: ["ignore", "hide", "width", "sort", "time", "time-style", "quoting-style", "format", "indicator-style"],
    flags: "aAbBcCdfFghiklLmnNopqQrRsStuUvxX1ZG",
    values: "IwT",
    long: [
      "all",
      "almost-all",
      "classify",
      "color",
      "human-readable",
      "directory",
      "recursive",
      "reverse",
      "sort",
      "time",
      "time-style",
      "full-time",
      "group-directories-first",
      "ignore",
      "hide",
      "inode",
      "size",
      "si",
      "width",
      "indicator-style",
      "dereference",
      "literal",
      "quoting-style",
      "format",
    ],
  },
  stat: {
    longValues: ["format", "printf"],
    flags: "LftZ",
    values: "c",
    long: ["dereference", "file-system", "format", "printf", "terse"],
  },
  du: {
    longValues: ["max-depth", "threshold", "exclude"],
    flags: "0abcDhHklLmPsSx",
    values: "Bdt",
    long: [
      "all",
      "apparent-size",
      "bytes",
      "total",
      "dereference",
      "human-readable",
      "summarize",
      "max-depth",
      "threshold",
      "time",
      "si",
      "null",
      "exclude",
    ],
  },
  tree: {
    long: ["dirsfirst", "noreport", "gitignore", "charset"],
    longValues: ["charset"],
    flags: "adfilpsughDFrtvUCnASJ",
    values: "LPI",
  },
  readlink: {
    flags: "efmnqsvz",
    long: ["canonicalize", "canonicalize-existing", "canonicalize-missing", "no-newline", "quiet", "silent", "zero"],
  },
  realpath: {
    flags: "eLmPqsz",
    long: [
      "canonicalize-existing",
      "canonicalize-missing",
      "logical",
      "physical",
      "quiet",
      "strip",
      "no-symlinks",
      "zero",
    ],
  },
  cut: {
    flags: "nsz",
    values: "bcdf",
    long: ["bytes", "characters", "delimiter", "fields", "complement", "only-delimited", "output-delimiter"],
    longValues: ["bytes", "characters", "delimiter", "fields", "output-delimiter"],
  },
  paste: { longValues: ["delimiters"], flags: "sz", values: "d", long: ["delimiters", "serial", "zero-terminated"] },
  comm: {
    longValues: ["output-delimiter"],
    flags: "123iz",
    long: ["check-order", "nocheck-order", "output-delimiter", "total", "zero-terminated"],
  },
  xargs: {
    flags: "0ortpx",
    values: "IdEnLPs",
    long: [
      "null",
      "delimiter",
      "replace",
      "max-args",
      "max-lines",
      "max-procs",
      "max-chars",
      "no-run-if-empty",
      "verbose",
    ],
    longValues: ["delimiter", "max-args", "max-procs", "max-chars"],
    stopAtOperand: true,
  },
  time: { flags: "p", stopAtOperand: true },
  command: { flags: "pvV", stopAtOperand: true },
  env: {
    longValues: ["unset"],
    flags: "i0",
    values: "u",
    long: ["ignore-environment", "null", "unset"],
    stopAtOperand: true,
  },
  nice: { longValues: ["adjustment"], flags: "", values: "n", digits: true, long: ["adjustment"], stopAtOperand: true },
  nohup: { flags: "", stopAtOperand: true },
  setsid: { flags: "fcw", stopAtOperand: true },
  timeout: {
    flags: "vp",
    values: "sk",
    long: ["signal", "kill-after", "preserve-status", "foreground", "verbose"],
    longValues: ["signal", "kill-after"],
    stopAtOperand: true,
  },
  stdbuf: {
    longValues: ["input", "output", "error"],
    flags: "",
    values: "ioe",
    long: ["input", "output", "error"],
    stopAtOperand: true,
  },
  exec: { flags: "cl", values: "a", stopAtOperand: true },
  builtin: { flags: "", stopAtOperand: true },
  date: {
    flags: "uR",
    values: "d",
    long: ["utc", "universal", "rfc-email", "date"],
    longValues: ["date"],
  },
};

for (const alias of ["egrep", "fgrep"])
  (ALLOWED as Record<string, AllowedOptions>)[alias] = ALLOWED.grep as AllowedOptions;

/**
 * Why an option of `name` cannot run unconfined, or `undefined` when every option is one the
 * analysis models (see `ALLOWED`); commands without an entry are not checked here.
 */
export function optionProblem(name: string, args: readonly ShellWord[]): string | undefined {
  const allowed = ALLOWED[name];
  if (!allowed) return undefined;
  const refuse = (option: string) =>
    `${name} ${option} is not an option the analysis models (it may read or write files, or run a program, beyond its words); spell long options in full`;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word.unresolved !== undefined) continue;
    const text = word.text;
    if (text === "--") return undefined;
    if (!text.startsWith("-") || text === "-") {
      if (allowed.stopAtOperand) return undefined;
      continue;
    }
    if (allowed.modes && /^[-+=][rwxXstugo]+$/.test(text)) continue;
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const long = text.slice(2, eq === -1 ? undefined : eq);
      if (!allowed.long?.includes(long)) return refuse(`--${long}`);
      if (eq === -1 && allowed.longValues?.includes(long)) i += 1;
      continue;
    }
    if (allowed.digits && /^-\d+$/.test(text)) continue;
    for (let j = 1; j < text.length; j += 1) {
      const letter = text[j]!;
      if (allowed.attached?.includes(letter)) break;
      if (allowed.values?.includes(letter)) {
        if (j === text.length - 1) i += 1;
        break;
      }
      if (!allowed.flags.includes(letter)) return refuse(`-${letter}`);
    }
  }
  return undefined;
}

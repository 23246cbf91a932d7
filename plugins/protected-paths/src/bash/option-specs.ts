import type { ArgSpec } from "./parse-args.ts";

/** GNU sort's options that take a value, and those the analysis looks for. */
export const SORT_SPEC: ArgSpec = {
  short: "koStT",
  long: [
    "key",
    "output",
    "field-separator",
    "buffer-size",
    "temporary-directory",
    "files0-from",
    "compress-program",
    "batch-size",
    "parallel",
    "random-source",
    "sort",
  ],
};

/** GNU diff's options that take a value, and those the analysis looks for. */
export const DIFF_SPEC: ArgSpec = {
  short: "CUDFIxXSL",
  long: [
    "from-file",
    "to-file",
    "exclude",
    "exclude-from",
    "starting-file",
    "ignore-matching-lines",
    "label",
    "show-function-line",
    "ifdef",
    "line-format",
    "old-line-format",
    "new-line-format",
    "unchanged-line-format",
    "old-group-format",
    "new-group-format",
    "changed-group-format",
    "unchanged-group-format",
    "horizon-lines",
    "tabsize",
    "width",
    "palette",
  ],
  flags: ["recursive", "new-file", "unidirectional-new-file"],
};

/** grep's options that take a value, and the flags the analysis looks for. */
export const GREP_SPEC: ArgSpec = {
  short: "efmABCdD",
  long: [
    "regexp",
    "file",
    "max-count",
    "after-context",
    "before-context",
    "include",
    "exclude",
    "exclude-from",
    "exclude-dir",
    "directories",
    "devices",
    "label",
    "binary-files",
  ],
  flags: ["recursive", "dereference-recursive"],
};

/** ripgrep's options that take a value, and the flags the analysis looks for. */
export const RG_SPEC: ArgSpec = {
  short: "efgmABCtTMjE",
  long: ["regexp", "file", "glob", "type", "max-count", "context"],
  flags: ["hidden", "unrestricted"],
};

/** uniq's options that take a value. */
export const UNIQ_SPEC: ArgSpec = { short: "fsw", long: ["skip-fields", "skip-chars", "check-chars"] };

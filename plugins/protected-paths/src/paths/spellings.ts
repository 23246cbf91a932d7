import path from "node:path";
import { joinRaw } from "./expand-home.ts";
import type { PolicyFs } from "./policy-fs.ts";
import { resolveReal } from "./resolve-real.ts";

/** Which spelling of a path this is. */
export type SpellingForm = "given" | "absolute" | "real" | "real-shell" | "nfc" | "nfd" | "folded";

/** One spelling of a path that the policy checked. */
export interface Spelling {
  form: SpellingForm;
  path: string;
}

/** Every way a path may be spelled, and where it really lands. */
export interface PathViews {
  /** As the tool received it. */
  given: string;
  /** Absolute, `~` expanded, lexically normalised (`..`, `.`, `//` and a trailing `/` removed). */
  absolute: string;
  /** Where it lands: through symlinks from the normalised spelling (as the built-ins open it) and
   * from the raw one (as the kernel walks `link/..`); one entry when both agree. */
  reals: string[];
  /** A symlink cycle was met: the real path is unknown. */
  loop: boolean;
  /** Whether the (first) real path exists. */
  exists: boolean;
  /** Every spelling checked, for explanations: the above plus NFC/NFD and case-folded variants. */
  spellings: Spelling[];
}

/** Options of `spellPath`. */
export interface SpellOptions {
  cwd: string;
  home: string;
  /** Expand `~` and `~/x` (true for tool paths; the bash analysis expands `~` itself). */
  expandHome: boolean;
  folding: boolean;
  fs: PolicyFs;
}

/** A doubled separator, a `.` or `..` segment, or a trailing separator: what `path.resolve` rewrites. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/** An absolute path `path.resolve` would return unchanged (so it need not walk it). */
function isNormalAbsolute(p: string): boolean {
  return p.startsWith("/") && !NOT_NORMAL.test(p);
}

/** Anything but printable ASCII (control characters never get here: the path text check refuses them). */
const NOT_PLAIN_ASCII = /[^ -~]/;

/** Appends `p` as `form` unless some spelling already has that text. */
function addSpelling(spellings: Spelling[], form: SpellingForm, p: string): void {
  for (const s of spellings) if (s.path === p) return;
  spellings.push({ form, path: p });
}

/**
 * Computes the spellings of one path; pure apart from the lstat/realpath/readlink calls on `fs`.
 * Contract: `input` has passed `checkPathText`. `spellings` always holds given, absolute and real
 * (even when equal), real-shell when it differs from real, then each NFC/NFD/folded variant that
 * differs from every spelling before it.
 */
export function spellPath(input: string, options: SpellOptions): PathViews {
  const raw = joinRaw(input, options);
  const absolute = isNormalAbsolute(raw) ? raw : path.resolve(raw);
  const viaNormal = resolveReal(absolute, options.fs);
  // The shell walks the raw spelling (through `link/..`); when it has no `.`/`..` segments or
  // doubled separators it is the same path, and resolving it again would only repeat syscalls.
  const viaShell = raw === absolute ? viaNormal : resolveReal(raw, options.fs);
  const reals = viaShell.path === viaNormal.path ? [viaNormal.path] : [viaNormal.path, viaShell.path];
  const spellings: Spelling[] = [
    { form: "given", path: input },
    { form: "absolute", path: absolute },
    { form: "real", path: viaNormal.path },
  ];
  if (viaShell.path !== viaNormal.path) spellings.push({ form: "real-shell", path: viaShell.path });
  // NFC/NFD and case-folded variants of the absolute and real spellings, each once. An ASCII path
  // is its own NFC and NFD form (already listed), so only its folded form can be new.
  for (const p of [absolute, ...reals]) {
    const ascii = !NOT_PLAIN_ASCII.test(p);
    if (!ascii) {
      addSpelling(spellings, "nfc", p.normalize("NFC"));
      addSpelling(spellings, "nfd", p.normalize("NFD"));
    }
    if (options.folding) addSpelling(spellings, "folded", (ascii ? p : p.normalize("NFC")).toLowerCase());
  }
  return {
    given: input,
    absolute,
    reals,
    loop: viaNormal.loop || viaShell.loop,
    exists: viaNormal.exists,
    spellings,
  };
}

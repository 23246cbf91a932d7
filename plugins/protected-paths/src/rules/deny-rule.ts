import path from "node:path";
import { GLOBSTAR, Minimatch, type MinimatchOptions } from "minimatch";

/** What a path is matched as: NFC-normalised, lower-cased when case folds. */
export interface MatchView {
  /** The absolute spelling. */
  absolute: string;
  /** The spelling relative to each workspace root it falls in (empty when it is outside every root). */
  relatives: readonly string[];
}

/** One deny glob, compiled. */
export interface DenyRule {
  /** Names the rule in decisions, e.g. "default denyWrite .env" or "config denyRead secrets/**". */
  label: string;
  /** Why, in words a model can act on, e.g. ".env files hold secrets and are protected". */
  why: string;
  /** True when the path (in any of its views) is denied by this rule. */
  matches(view: MatchView): boolean;
  /**
   * True for `dir/**` and `dir/` rules: they deny a directory and everything below it, so a walk
   * tests only each entry against the directory itself (`matchesRoot`) and lets its contents inherit.
   */
  subtree: boolean;
  /** For subtree rules, whether the path is the protected directory (or file) itself; otherwise `matches`. */
  matchesRoot(view: MatchView): boolean;
  /**
   * True when the path is a directory the rule protects something inside of (`.claude` for
   * `.claude/settings.json`, `.git` and `.git/hooks` for `.git/hooks/**`): a symbolic link made
   * there, or a folder moved or copied there, would put files under the protected name that no
   * check of the protected name saw.
   */
  reachesThrough(view: MatchView): boolean;
  /**
   * A quick test of an entry's base name (NFC, lower-cased when folding): false means the walk's
   * test (`matchesRoot` for a subtree rule, `matches` otherwise) cannot be true for a path with
   * that name, so a walk may skip it.
   */
  nameMayMatch(name: string): boolean;
  /** The pattern as anchored: `**\/` in front for any depth, `~` expanded, `./` removed. */
  body: string;
  /** Where the pattern is matched from. */
  anchor: Anchor;
  /**
   * For a rule anchored at an absolute path (`/x`, `~/x`): the absolute pattern of what it
   * protects (for a subtree rule the directory, without the trailing `/**`).
   */
  absolute?: string;
  /**
   * Text every spelling the rule matches contains, in the NFC or NFD form of the text or of the
   * spelling (case-insensitively with both of JavaScript's case rules when `folding`): a spelling
   * without it is matched by neither `matches` nor `matchesRoot`. Absent when no text is certain.
   */
  required?: { literal: string; folding: boolean };
}

/** How a pattern is anchored. */
export type Anchor = "any-depth" | "workspace-root" | "absolute";

function anchorOf(pattern: string, home: string): { anchor: Anchor; body: string } {
  if (pattern === "~" || pattern.startsWith("~/")) {
    // Normalised here too: `HOME=/h/.` would make `/h/./.ssh/**`, which no normalised path matches.
    const base = path.posix.resolve(home || "/");
    return { anchor: "absolute", body: pattern === "~" ? base : `${base === "/" ? "" : base}${pattern.slice(1)}` };
  }
  if (pattern.startsWith("/")) return { anchor: "absolute", body: pattern };
  if (pattern.startsWith("./")) return { anchor: "workspace-root", body: pattern.replace(/^(\.\/)+/, "") };
  return { anchor: "any-depth", body: pattern.startsWith("**/") ? pattern : `**/${pattern}` };
}

/**
 * `dir/` and `dir/**` also cover `dir` itself: removing or replacing it touches everything inside.
 * With `contents`, a plain pattern covers what lies below what it matches too (`P` is `P` and `P/**`).
 */
function withDirectory(body: string, contents: boolean): string[] {
  const trimmed = body.replace(/\/+$/, "");
  if (trimmed !== body) return [trimmed, `${trimmed}/**`];
  if (body.endsWith("/**")) return [body, body.slice(0, -3)];
  return contents ? [body, `${body}/**`] : [body];
}

/** minimatch refuses longer patterns; checked when the rule is made, since compiling waits for first use. */
const MAX_PATTERN_LENGTH = 64 * 1024;

/** Characters that can make a segment something other than its own text. */
const MAGIC = /[*?[\]{}()!+@\\]/;

type Compiled = { form: "NFC" | "NFD" | "both"; mm: Minimatch }[];

/** The text after a segment's last special character (all of it when it has none). */
const PLAIN_TAIL = /[^*?[\]{}()!+@\\]*$/;

/**
 * A pattern's segments (without the empty one before a leading `/`), or undefined when they do not
 * say what a match looks like: braces expand before segments exist (`{a/b,c}` ends in `b` or `c`),
 * and minimatch folds `.` and `a/..` away.
 */
function segmentsOf(pattern: string): string[] | undefined {
  if (pattern.includes("{")) return undefined;
  const segments = pattern.split("/");
  if (pattern.startsWith("/")) segments.shift();
  return segments.some((s) => s === "." || s === "..") ? undefined : segments;
}

/**
 * The longest text every path the pattern matches must contain, or undefined when the pattern has
 * none that is certain: a whole literal segment, or the text before the first or after the last
 * special character of a segment (`.env.` of `.env.*`, `.pem` of `*.pem`). Uncertain segments
 * (`segmentsOf`) and empty ones (`a//b`) give no certainty, so none is claimed.
 */
function requiredLiteral(pattern: string): string | undefined {
  const segments = segmentsOf(pattern);
  if (!segments || segments.includes("")) return undefined;
  let longest = "";
  for (const segment of segments) {
    const first = segment.search(MAGIC);
    const pieces = first < 0 ? [segment] : [segment.slice(0, first), PLAIN_TAIL.exec(segment)?.[0] ?? ""];
    for (const piece of pieces) if (piece.length > longest.length) longest = piece;
  }
  return longest || undefined;
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A test that is true for every spelling a rule with that required literal can match (and for
 * some it cannot): the literal as a substring of the spelling or of its NFD form, in both of the
 * literal's forms; when folding, case-insensitively with both of JavaScript's case rules (minimatch
 * compiles `nocase` literals to `/…/i` regular expressions, so `ſ` can stand for `s`).
 */
function containsTest(literal: string, folding: boolean): (spelling: string) => boolean {
  const forms = [...new Set([literal.normalize("NFC"), literal.normalize("NFD")])];
  const tests: ((text: string) => boolean)[] = folding
    ? forms.flatMap((form) => {
        const source = escapeRegExp(form);
        const plain = new RegExp(source, "i");
        const unicode = new RegExp(source, "iu");
        return [(text: string) => plain.test(text) || unicode.test(text)];
      })
    : forms.map((form) => (text: string) => text.includes(form));
  return (spelling) => {
    if (tests.some((t) => t(spelling))) return true;
    const nfd = spelling.normalize("NFD");
    return nfd !== spelling && tests.some((t) => t(nfd));
  };
}

/**
 * Compiles a deny glob (minimatch, `dot: true`).
 * Contract: a pattern starting with `/` or `~/` matches the absolute path; one starting with `./`
 * matches the path relative to a workspace root; any other pattern matches at any depth (a `**\/`
 * prefix is implied) — relative to the root a path falls in, or its absolute path when it is outside
 * every root. `x/` and `x/**` also match `x`; with `contents`, `x` also matches `x/**`. `!` and `#`
 * have no special meaning. Each pattern is compiled in NFC and NFD and compared with the same form
 * of the path; case-insensitively when `folding`. The globs are compiled at their first use, and
 * only for a spelling that contains the pattern's longest literal segment (when it has one): a
 * policy of many rules starts without compiling those no checked path could match (an agent hook
 * decides one call per process).
 */
export function compileDenyRule(options: {
  pattern: string;
  label: string;
  why: string;
  folding: boolean;
  home: string;
  /**
   * The rule also covers everything below a folder it matches (read rules: what a hidden folder
   * holds is hidden too, as the sandbox masks it and a walk never enters it).
   */
  contents?: boolean;
}): DenyRule {
  if (options.pattern.length > MAX_PATTERN_LENGTH) {
    throw new TypeError(`pattern is too long (${options.pattern.length} characters, at most ${MAX_PATTERN_LENGTH})`);
  }
  const { anchor, body } = anchorOf(options.pattern, options.home);
  const mmOptions: MinimatchOptions = { dot: true, nocase: options.folding, nonegate: true, nocomment: true };
  // A pattern whose NFC and NFD forms are the same text (every ASCII pattern) is compiled once and
  // tried on both forms of the path: the same tests as two compiled copies, at half the start-up cost.
  const compile = (patterns: readonly string[]): Compiled =>
    patterns.flatMap((p): Compiled => {
      const nfc = p.normalize("NFC");
      const nfd = p.normalize("NFD");
      if (nfc === nfd) return [{ form: "both" as const, mm: new Minimatch(nfc, mmOptions) }];
      return [
        { form: "NFC" as const, mm: new Minimatch(nfc, mmOptions) },
        { form: "NFD" as const, mm: new Minimatch(nfd, mmOptions) },
      ];
    });
  const forms = withDirectory(body, options.contents === true);
  const root = forms.length === 2 ? (forms.find((f) => !f.endsWith("/**")) as string) : undefined;
  let all: { compiled: Compiled; rootCompiled: Compiled } | undefined;
  const matchers = () => {
    if (all) return all;
    // The root's own matchers are among the forms' (it is one of them): compiled once, shared.
    const perForm = forms.map((form) => compile([form]));
    const compiled = perForm.flat();
    const rootCompiled = root === undefined ? compiled : (perForm[forms.indexOf(root)] ?? compile([root]));
    all = { compiled, rootCompiled };
    return all;
  };
  const literal = requiredLiteral(root ?? body);
  const mayMatch = literal === undefined ? () => true : containsTest(literal, options.folding);
  const candidates = (view: MatchView): readonly string[] => {
    if (anchor === "absolute") return [view.absolute];
    if (anchor === "workspace-root") return view.relatives;
    return view.relatives.length > 0 ? view.relatives : [view.absolute];
  };
  const test = (which: "compiled" | "rootCompiled") => (view: MatchView) =>
    candidates(view).some(
      (c) =>
        mayMatch(c) &&
        matchers()[which].some(({ form, mm }) => {
          if (form === "NFC") return mm.match(c);
          const nfd = c.normalize("NFD");
          return form === "NFD" ? mm.match(nfd) : mm.match(c) || (nfd !== c && mm.match(nfd));
        }),
    );
  let names: ((name: string) => boolean) | undefined;
  let through: ((spelling: string) => boolean) | undefined;
  const rule: DenyRule = {
    body,
    anchor,
    label: options.label,
    why: options.why,
    matches: test("compiled"),
    subtree: root !== undefined,
    matchesRoot: test("rootCompiled"),
    nameMayMatch: (name) => {
      names ??= nameTest(root ?? body, mmOptions);
      return names(name);
    },
    reachesThrough: (view) => {
      through ??= throughTest(body, mmOptions);
      const test = through;
      return candidates(view).some((c) => test(c) || test(c.normalize("NFD")));
    },
  };
  if (anchor === "absolute") rule.absolute = root ?? body;
  if (literal !== undefined) rule.required = { literal, folding: options.folding };
  return rule;
}

/**
 * Whether a spelling matches a proper directory prefix of the pattern (`**\/.claude` of
 * `**\/.claude/settings.json`); prefixes of nothing but `**` (every directory) are left out, since
 * what lands under any folder is checked by its own name.
 */
function throughTest(pattern: string, mmOptions: MinimatchOptions): (spelling: string) => boolean {
  const forms = [...new Set([pattern.normalize("NFC"), pattern.normalize("NFD")])];
  const checks = forms.flatMap((form) => {
    const mm = new Minimatch(form, mmOptions);
    return mm.set.flatMap((parts) =>
      parts
        .slice(0, -1)
        .map((_, k) => parts.slice(0, k + 1))
        .filter((prefix) => prefix.some((part) => part !== GLOBSTAR))
        .map((prefix) => (file: string[]) => mm.matchOne(file, prefix, false)),
    );
  });
  return (spelling) => {
    const file = spelling.split("/");
    return checks.some((check) => check(file));
  };
}

/**
 * The quick base-name test of a pattern: its last segment, as a literal or a one-segment glob.
 * A last segment that is `**` (or a pattern with no segments) may match any name; so may any name
 * of a pattern with braces (they expand before segments exist: `{a/b,c}` ends in `b` or `c`) or
 * with `.`, `..` or empty segments (minimatch folds `a/..` away).
 */
function nameTest(pattern: string, mmOptions: MinimatchOptions): (name: string) => boolean {
  const segments = segmentsOf(pattern);
  if (!segments) return () => true;
  const last = segments.filter((s) => s.length > 0).at(-1);
  if (last === undefined || last.includes("**")) return () => true;
  const parts = [...new Set([last.normalize("NFC"), last.normalize("NFD")])]
    .flatMap((p) => new Minimatch(p, mmOptions).set)
    .map((set) => set[0]);
  const fold = mmOptions.nocase === true;
  const one = (part: (typeof parts)[number], name: string): boolean => {
    if (typeof part === "string") return fold ? part.toLowerCase() === name.toLowerCase() : part === name;
    if (part instanceof RegExp) return part.test(name);
    return true; // anything else (a globstar) may match every name
  };
  return (name) => {
    const nfd = name.normalize("NFD");
    return parts.some((part) => one(part, name) || (nfd !== name && one(part, nfd)));
  };
}

import { Minimatch, type MinimatchOptions } from "minimatch";

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
}

/** How a pattern is anchored. */
type Anchor = "any-depth" | "workspace-root" | "absolute";

function anchorOf(pattern: string, home: string): { anchor: Anchor; body: string } {
  if (pattern === "~" || pattern.startsWith("~/")) return { anchor: "absolute", body: home + pattern.slice(1) };
  if (pattern.startsWith("/")) return { anchor: "absolute", body: pattern };
  if (pattern.startsWith("./")) return { anchor: "workspace-root", body: pattern.replace(/^(\.\/)+/, "") };
  return { anchor: "any-depth", body: pattern.startsWith("**/") ? pattern : `**/${pattern}` };
}

/** `dir/` and `dir/**` also cover `dir` itself: removing or replacing it touches everything inside. */
function withDirectory(body: string): string[] {
  const trimmed = body.replace(/\/+$/, "");
  if (trimmed !== body) return [trimmed, `${trimmed}/**`];
  if (body.endsWith("/**")) return [body, body.slice(0, -3)];
  return [body];
}

/**
 * Compiles a deny glob (minimatch, `dot: true`).
 * Contract: a pattern starting with `/` or `~/` matches the absolute path; one starting with `./`
 * matches the path relative to a workspace root; any other pattern matches at any depth (a `**\/`
 * prefix is implied) — relative to the root a path falls in, or its absolute path when it is outside
 * every root. `x/` and `x/**` also match `x`. `!` and `#` have no special meaning. Each pattern is
 * compiled in NFC and NFD and compared with the same form of the path; case-insensitively when
 * `folding`.
 */
export function compileDenyRule(options: {
  pattern: string;
  label: string;
  why: string;
  folding: boolean;
  home: string;
}): DenyRule {
  const { anchor, body } = anchorOf(options.pattern, options.home);
  const mmOptions: MinimatchOptions = { dot: true, nocase: options.folding, nonegate: true, nocomment: true };
  const compiled = withDirectory(body).flatMap((p) => [
    { form: "NFC" as const, mm: new Minimatch(p.normalize("NFC"), mmOptions) },
    { form: "NFD" as const, mm: new Minimatch(p.normalize("NFD"), mmOptions) },
  ]);
  const candidates = (view: MatchView): readonly string[] => {
    if (anchor === "absolute") return [view.absolute];
    if (anchor === "workspace-root") return view.relatives;
    return view.relatives.length > 0 ? view.relatives : [view.absolute];
  };
  return {
    label: options.label,
    why: options.why,
    matches: (view) =>
      candidates(view).some((c) => compiled.some(({ form, mm }) => mm.match(form === "NFC" ? c : c.normalize("NFD")))),
  };
}

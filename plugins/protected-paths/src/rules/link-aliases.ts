import { dirname, resolve } from "node:path";
import { escape as escapeGlob } from "minimatch";
import type { PolicyFs } from "../paths/policy-fs.ts";
import type { DenyRule } from "./deny-rule.ts";

/** Characters that make a segment a pattern rather than a name. */
const MAGIC = /[*?[\]{}()!+@\\]/;

/** What the walk needs to know of a path, asked once per path however many rules share it. */
export class LinkProbe {
  readonly #fs: PolicyFs;
  readonly #kinds = new Map<string, "link" | "other" | "missing">();
  readonly #reals = new Map<string, string | undefined>();

  constructor(fs: PolicyFs) {
    this.#fs = fs;
  }

  kind(p: string): "link" | "other" | "missing" {
    let kind = this.#kinds.get(p);
    if (kind === undefined) {
      const info = this.#fs.lstat(p);
      kind = info === undefined ? "missing" : info.isSymbolicLink ? "link" : "other";
      this.#kinds.set(p, kind);
    }
    return kind;
  }

  /** Where a symbolic link leads: its real path, or for one that dangles, its target as written. */
  real(p: string): string | undefined {
    if (!this.#reals.has(p)) {
      const target = this.#fs.readlink(p);
      const lexical = target === undefined ? undefined : resolve(dirname(p), target);
      this.#reals.set(p, this.#fs.realpath(p) ?? lexical);
    }
    return this.#reals.get(p);
  }
}

/**
 * Where a rule's protected paths really are when a symbolic link leads there: `~/.aws/**` with
 * `~/.aws -> ~/dotfiles/aws` protects `~/dotfiles/aws/**` too, and `.claude/settings.json` with
 * `.claude -> shared/claude` at a workspace root protects `shared/claude/settings.json`. Without
 * this a tool could read or write the protected file by its real name.
 * Contract: each place the rule is anchored (its absolute pattern, or each root for patterns
 * relative to one — the root-level instance of an any-depth pattern) is walked down its literal
 * beginning from `/` (or the root, which is real); at the first symbolic link, the pattern
 * re-anchored at the link's real path (for a link that dangles, its target as written: what a write
 * through it would create) is returned (escaped: a real path is a literal). A missing
 * segment ends the walk: nothing below it exists to be reached another way.
 */
export function linkAliasPatterns(rule: DenyRule, roots: readonly string[], probe: LinkProbe): string[] {
  const anchored =
    rule.anchor === "absolute"
      ? [{ base: "", full: rule.body }]
      : roots.map((root) => ({
          base: root,
          full: `${root}/${rule.anchor === "any-depth" ? rule.body.replace(/^\*\*\//, "") : rule.body}`,
        }));
  const out: string[] = [];
  for (const { base, full } of anchored) {
    const segments = full
      .slice(base.length)
      .split("/")
      .filter((s, i) => i > 0 || s !== "");
    let at = base;
    for (const segment of segments) {
      if (segment === "" || MAGIC.test(segment)) break;
      at = `${at}/${segment}`;
      const kind = probe.kind(at);
      if (kind === "missing") break;
      if (kind !== "link") continue;
      const real = probe.real(at);
      if (real !== undefined && real !== at) out.push(`${escapeGlob(real)}${full.slice(at.length)}`);
      break;
    }
  }
  return out;
}

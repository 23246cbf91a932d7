import { dirname, resolve } from "node:path";
import { escape as escapeGlob } from "minimatch";
import type { PolicyFs } from "../paths/policy-fs.ts";
import type { DenyRule } from "./deny-rule.ts";

/** Characters that make a segment a pattern rather than a name. */
const MAGIC = /[*?[\]{}()!+@\\]/;

type Kind = "link" | "other" | "missing";

/** A folder's entries by exact name, and the loose forms (case and Unicode form folded) of them all. */
interface Listing {
  kinds: Map<string, Kind>;
  loose: Set<string>;
}

/** Distinct paths probed in one folder before the folder is listed instead (one call for all). */
const LIST_AFTER = 4;

/** A name as a case-folding or normalizing filesystem may find it. */
const looseName = (name: string) => name.normalize("NFC").toLowerCase();

/**
 * What the walk needs to know of a path, asked once per path however many rules share it. A folder
 * probed for many names (the home, a workspace root: one per default rule) is listed once instead
 * of an `lstat` per name; a name the listing lacks but a folding filesystem could still find under
 * another case or Unicode form is asked with `lstat`, so a listing never hides a link.
 */
export class LinkProbe {
  readonly #fs: PolicyFs;
  readonly #kinds = new Map<string, Kind>();
  readonly #reals = new Map<string, string | undefined>();
  readonly #probes = new Map<string, number>();
  readonly #listings = new Map<string, Listing | null>();

  constructor(fs: PolicyFs) {
    this.#fs = fs;
  }

  kind(p: string): Kind {
    let kind = this.#kinds.get(p);
    if (kind === undefined) {
      kind = this.#listed(p);
      if (kind === undefined) {
        const info = this.#fs.lstat(p);
        kind = info === undefined ? "missing" : info.isSymbolicLink ? "link" : "other";
      }
      this.#kinds.set(p, kind);
    }
    return kind;
  }

  /** The kind from the folder's listing, once the folder is probed often; undefined: ask lstat. */
  #listed(p: string): Kind | undefined {
    const dir = dirname(p);
    if (dir === p) return undefined;
    const name = p.slice(dir.length + (dir.endsWith("/") ? 0 : 1));
    let listing = this.#listings.get(dir);
    if (listing === undefined) {
      const probes = (this.#probes.get(dir) ?? 0) + 1;
      this.#probes.set(dir, probes);
      if (probes < LIST_AFTER) return undefined;
      listing = this.#list(dir);
      this.#listings.set(dir, listing);
    }
    if (listing === null) return undefined;
    const kind = listing.kinds.get(name);
    if (kind !== undefined) return kind;
    return listing.loose.has(looseName(name)) ? undefined : "missing";
  }

  #list(dir: string): Listing | null {
    const entries = this.#fs.readdir(dir);
    if (entries === undefined) return null;
    const kinds = new Map<string, Kind>();
    const loose = new Set<string>();
    for (const entry of entries) {
      kinds.set(entry.name, entry.isSymbolicLink ? "link" : "other");
      loose.add(looseName(entry.name));
    }
    return { kinds, loose };
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

import path from "node:path";
import type { SandboxLayout } from "@gatehouse/sdk";
import type { WorkspaceRoot } from "../paths/workspace.ts";
import { relativeInside } from "../paths/workspace.ts";
import type { DenyRule, MatchView } from "../rules/deny-rule.ts";
import type { PolicyRules } from "../rules/policy-rules.ts";
import type { AliasTable } from "../scan/alias-table.ts";
import type { DenyMatch } from "../scan/deny-index.ts";
import { expandAbsolute } from "../scan/expand-absolute.ts";
import { hasRawBytes, realpathAt } from "../scan/raw-fs.ts";

/** What a layout is planned from. */
export interface LayoutInput {
  roots: readonly WorkspaceRoot[];
  rules: PolicyRules;
  /** The deny matches in the workspace, as the index found them right now. */
  matches: readonly DenyMatch[];
  /** Every name (hard link) in the workspace of the given files (`dev:ino`). */
  aliasesOf: (files: ReadonlySet<string>) => { path: string; file: string }[];
  /**
   * Every file the read rules deny, by `dev:ino` (`buildAliasTable`): besides the matches, the files
   * inside denied folders and those of absolute rules (`~/.ssh/**`), whose other names are masked too.
   */
  readDenied?: AliasTable | undefined;
  allowOutside: { read: boolean; write: boolean };
  network: boolean;
  view: (absolute: string) => MatchView;
}

function realOr(p: string): string | undefined {
  return realpathAt(p);
}

/**
 * Refuses a layout that names a path bubblewrap cannot be told: its arguments are text, and a
 * name that is not valid UTF-8 would reach it as another name, leaving the real one unprotected.
 */
function sayable(layout: SandboxLayout): SandboxLayout {
  for (const p of [...layout.readOnly, ...layout.masked, ...layout.pinned, ...layout.writable]) {
    if (hasRawBytes(p)) {
      throw new Error(
        `the protected path ${JSON.stringify(p)} has a name that is not valid UTF-8, which the sandbox cannot mount; rename or remove it`,
      );
    }
  }
  return layout;
}

/** True when the match is a symlink whose target does not exist: nothing can be mounted there. */
function dangling(match: DenyMatch): boolean {
  return match.identity.kind === "link" && match.identity.link?.resolved === undefined;
}

/** The directories strictly between the workspace root `p` lies in and `p` itself. */
function ancestorsBelowRoot(roots: readonly WorkspaceRoot[], p: string): string[] {
  const root = roots.find((r) => relativeInside(r.real, p) !== undefined);
  if (!root) return [];
  const out: string[] = [];
  for (let dir = path.dirname(p); dir !== root.real && relativeInside(root.real, dir) !== undefined; ) {
    out.push(dir);
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return out;
}

function absoluteMatches(rules: readonly DenyRule[], view: LayoutInput["view"]): string[] {
  return rules.flatMap((rule) => expandAbsolute(rule, view));
}

/**
 * The sandbox layout of the policy as the filesystem is now.
 * Contract: workspace roots writable; the rest read-only (`allowOutsideWorkspace.read: false`:
 * hidden; `write: true`: writable); every existing write-denied file and `dir/**` directory
 * read-only, every write-denied directory matched by name only (`.git`) pinned; every existing
 * read-denied path masked, and so is every other name (hard link) of a read-denied file in the
 * workspace; every directory between a root and a protected path pinned, so that
 * renaming it cannot carry the protection away; paths of absolute rules (`~/.ssh/**`,
 * `/etc/shadow`) masked, and made read-only when the outside is writable.
 */
export function planLayout(input: LayoutInput): SandboxLayout {
  const { roots, matches } = input;
  const readOnly: string[] = [];
  const masked: string[] = [];
  const pinned = new Set<string>();
  for (const match of matches) {
    if (dangling(match)) continue;
    // A symbolic link is protected where it leads: bubblewrap mounts onto the real path (a mount
    // onto the link itself fails for a link with an absolute target), and the review puts back a
    // link the command replaced.
    const at = match.identity.kind === "link" ? realOr(match.path) : match.path;
    if (at === undefined) continue;
    if (match.read) masked.push(at);
    if (match.write) {
      if (match.identity.kind === "dir" && !match.writeCoversContents) pinned.add(at);
      else readOnly.push(at);
    }
    for (const dir of ancestorsBelowRoot(roots, match.path)) pinned.add(dir);
    if (at !== match.path) for (const dir of ancestorsBelowRoot(roots, at)) pinned.add(dir);
  }
  masked.push(...absoluteMatches(input.rules.read, input.view));
  // Write rules at absolute paths inside the workspace (git's core.hooksPath, where a protected
  // link really leads, reserved files) are protected even where the index does not look
  // (node_modules), and so are the folders above them.
  for (const p of absoluteMatches(input.rules.write, input.view)) {
    if (!roots.some((r) => relativeInside(r.real, p) !== undefined)) continue;
    readOnly.push(p);
    for (const dir of ancestorsBelowRoot(roots, p)) pinned.add(dir);
  }
  // A hard link is the same file under another name: protected like the denied name. A file read
  // rules deny from outside the workspace (`~/.ssh/id_rsa`, a configured `/srv/vault/**`) or inside
  // a denied folder (`private/a.txt`) is no match of its own: a link to it made in the workspace
  // before the run read as the file itself until the policy's list of denied files was asked too.
  const linked = new Map<string, { read: boolean; write: boolean }>();
  for (const m of matches) {
    if (m.identity.kind === "file" && m.identity.nlink > 1) {
      linked.set(`${m.identity.dev}:${m.identity.ino}`, { read: m.read !== undefined, write: m.write !== undefined });
    }
  }
  for (const [file, entry] of input.readDenied ?? []) {
    if (entry.links > 1) linked.set(file, { read: true, write: linked.get(file)?.write ?? false });
  }
  for (const alias of input.aliasesOf(new Set(linked.keys()))) {
    const of = linked.get(alias.file);
    if (of?.read) masked.push(alias.path);
    else if (of?.write) readOnly.push(alias.path);
  }
  const outside = !input.allowOutside.read ? "hidden" : input.allowOutside.write ? "writable" : "read-only";
  if (outside === "writable") readOnly.push(...absoluteMatches(input.rules.write, input.view));
  return sayable({
    writable: [...new Set(roots.map((r) => r.real))],
    outside,
    readOnly,
    masked,
    pinned: [...pinned],
    network: input.network,
  });
}

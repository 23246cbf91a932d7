import type { FileInfo, PolicyFs } from "../paths/policy-fs.ts";
import type { WorkspaceRoot } from "../paths/workspace.ts";
import type { DenyRule } from "../rules/deny-rule.ts";
import type { PolicyRules } from "../rules/policy-rules.ts";

/** Read or write access to a path. */
export type Access = "read" | "write";

/** Everything a check needs, resolved once when the policy is created. */
export interface PolicyContext {
  /** Relative paths resolve against it. */
  cwd: string;
  /** `~` expands to it. */
  home: string;
  fs: PolicyFs;
  /** The workspace: the boundary of writes (and of reads when they are kept inside). */
  roots: readonly WorkspaceRoot[];
  /**
   * Where `./` rules are anchored besides the roots, and where any-depth rules see relative paths:
   * the project directory and every root any settings level configured (a lower level narrowing
   * the workspace does not move the rules a higher level wrote for its own roots).
   */
  anchors: readonly WorkspaceRoot[];
  /** Compare case-insensitively (the filesystem folds case, or the configuration says so). */
  folding: boolean;
  rules: PolicyRules;
  allowOutside: { read: boolean; write: boolean };
  /** The protected file (and the read rule) that is the same file as `info`, if any: hard links. */
  aliasOf?: (info: FileInfo) => { path: string; rule: DenyRule } | undefined;
}

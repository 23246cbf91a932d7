import { showPath } from "../paths/path-text.ts";
import { compileDenyRule, type DenyRule } from "./deny-rule.ts";

/** The write denies that always apply, whatever the configuration adds. */
export const DEFAULT_DENY_WRITE: readonly { pattern: string; why: string }[] = [
  { pattern: ".env", why: ".env files hold secrets and are protected" },
  { pattern: ".env.*", why: ".env.* files hold secrets and are protected" },
  { pattern: ".git/**", why: "the .git directory is protected; change the repository with git commands instead" },
  {
    pattern: "node_modules/**",
    why: "node_modules is protected; change dependencies through the package manager instead",
  },
  {
    pattern: ".gatehouse/**",
    why: ".gatehouse holds the agent's own policy, extensions and audit, which the agent may not change",
  },
];

/** The compiled deny rules of a policy, per access. */
export interface PolicyRules {
  write: DenyRule[];
  read: DenyRule[];
}

/**
 * Compiles the default denies followed by the configured ones.
 * Contract: defaults come first and cannot be removed; labels are "default denyWrite P",
 * "config denyWrite P" and "config denyRead P" with P as configured.
 */
export function compilePolicyRules(options: {
  denyWrite: readonly string[];
  denyRead: readonly string[];
  folding: boolean;
  home: string;
}): PolicyRules {
  const { folding, home } = options;
  const configured = (access: "Write" | "Read", pattern: string) =>
    compileDenyRule({
      pattern,
      label: `config deny${access} ${pattern}`,
      why: `the project's policy denies ${access === "Write" ? "writes to" : "reads of"} ${showPath(pattern)}`,
      folding,
      home,
    });
  return {
    write: [
      ...DEFAULT_DENY_WRITE.map(({ pattern, why }) =>
        compileDenyRule({ pattern, label: `default denyWrite ${pattern}`, why, folding, home }),
      ),
      ...options.denyWrite.map((p) => configured("Write", p)),
    ],
    read: options.denyRead.map((p) => configured("Read", p)),
  };
}

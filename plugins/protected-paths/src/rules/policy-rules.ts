import type { ReservedPath } from "@gatehouse/sdk";
import { escape as escapeGlob } from "minimatch";
import { showPath } from "../paths/path-text.ts";
import { bareRepositoryRule } from "./bare-repository-rule.ts";
import { DEFAULT_DENY_READ, DEFAULT_DENY_WRITE, type DefaultRule } from "./default-rules.ts";
import type { DenyRule } from "./deny-rule.ts";
import { sharedDenyRule } from "./shared-deny-rule.ts";

export { DEFAULT_DENY_READ, DEFAULT_DENY_WRITE } from "./default-rules.ts";

/** The compiled deny rules of a policy, per access. */
export interface PolicyRules {
  write: DenyRule[];
  read: DenyRule[];
}

const BARE_REPOSITORY = bareRepositoryRule(false);
const BARE_REPOSITORY_FOLDED = bareRepositoryRule(true);

const STATE_WHY =
  "it is Gatehouse's own state (trust, caches, audit and keys), out of the agent's reach (GATEHOUSE_HOME)";

const HOOKS_WHY =
  "git runs the hooks in it (core.hooksPath) on commit, checkout and more, so the agent may not change them";
const INCLUDE_WHY =
  "git's configuration includes it and reads its settings as its own (a core.fsmonitor there runs at the next git status), so the agent may not change it";

const COMMAND_WHY =
  "a command an agent or editor is configured to run by itself (a hook, an MCP server, a task run when the folder opens) runs it, outside any sandbox, so the agent may not change it";

const PROGRAMS_WHY =
  "the shell looks programs up there (PATH), so a program written there runs in place of a command the user or a tool runs next";

/**
 * Compiles the default denies, the rule that protects Gatehouse's own state, then the configured ones.
 * Contract: defaults come first and cannot be removed; labels are "default denyWrite P",
 * "default denyRead P", "default deny GATEHOUSE_HOME", "config denyWrite P" and
 * "config denyRead P" with P as written. `gatehouseHome` (when given) is denied for reads and
 * writes, matched as a literal path (glob characters in it have no special meaning); each reserved
 * path likewise for writes ("reserved by NAME P"), and for reads too when it is hidden. A read rule
 * that matches a folder denies everything below it too; a write rule only when its default says so.
 */
export function compilePolicyRules(
  options: BaseRuleOptions & { reserved?: readonly ReservedPath[] | undefined },
): PolicyRules {
  return withReserved(compileBaseRules(options), options.reserved ?? [], options);
}

/** What `compileBaseRules` compiles from: everything of a policy's rules but its reserved paths. */
export interface BaseRuleOptions {
  denyWrite: readonly string[];
  denyRead: readonly string[];
  folding: boolean;
  home: string;
  /**
   * Other spellings of the home directory (its real path, see `homeSpellings`): every `~` pattern
   * is compiled at each of them too, with the same label.
   */
  otherHomes?: readonly string[] | undefined;
  gatehouseHome?: string | undefined;
  /** Folders git runs hooks from (`core.hooksPath`), denied for writes like `.git/hooks`. */
  hooksFolders?: readonly string[] | undefined;
  /** Files git's configuration includes, denied for writes like `.git/config`. */
  gitIncludes?: readonly string[] | undefined;
  /** Scripts agents' configured commands run (`agentCommandFiles`), denied for writes like their settings. */
  commandFiles?: readonly string[] | undefined;
  /** Folders programs are looked up in (`programFolders`): what is written there runs in place of a command. */
  programFolders?: readonly string[] | undefined;
}

/** A policy's rules apart from its reserved paths, split where the reserved rules go. */
export interface BaseRules {
  writeBefore: readonly DenyRule[];
  writeAfter: readonly DenyRule[];
  readBefore: readonly DenyRule[];
  readAfter: readonly DenyRule[];
}

/**
 * The rules `compilePolicyRules` compiles apart from the reserved paths' (see there): what stays
 * the same while the reserved-path list grows, so a policy rebuilt for a new list compiles only those.
 */
export function compileBaseRules(options: BaseRuleOptions): BaseRules {
  const { folding, home } = options;
  // Read rules cover what lies below a folder they match: what a hidden folder holds is hidden
  // (the sandbox masks the folder, a walk never enters it, so `read` may not open it by name either).
  const compile = (pattern: string, label: string, why: string, contents = false) =>
    sharedDenyRule({ pattern, label, why, folding, home, contents });
  const homes = (options.otherHomes ?? []).filter((h) => h !== home);
  // A `~` pattern once per spelling of the home directory; any other pattern once.
  const anchored = (pattern: string, label: string, why: string, contents: boolean): DenyRule[] =>
    pattern === "~" || pattern.startsWith("~/")
      ? [
          compile(pattern, label, why, contents),
          ...homes.map((h) => sharedDenyRule({ pattern, label, why, folding, home: h, contents })),
        ]
      : [compile(pattern, label, why, contents)];
  const defaults = (access: "Write" | "Read", rules: readonly DefaultRule[]) =>
    rules.flatMap(({ pattern, why, contents }) =>
      anchored(pattern, `default deny${access} ${pattern}`, why, access === "Read" || contents === true),
    );
  const configured = (access: "Write" | "Read", patterns: readonly string[]) =>
    patterns.flatMap((pattern) =>
      anchored(
        pattern,
        `config deny${access} ${pattern}`,
        `the project's policy denies ${access === "Write" ? "writes to" : "reads of"} ${showPath(pattern)}`,
        access === "Read",
      ),
    );
  const state =
    options.gatehouseHome === undefined
      ? []
      : [compile(`${escapeGlob(options.gatehouseHome)}/**`, "default deny GATEHOUSE_HOME", STATE_WHY)];
  const hooks = (options.hooksFolders ?? []).map((folder) =>
    compile(`${escapeGlob(folder)}/**`, `default denyWrite core.hooksPath ${folder}`, HOOKS_WHY),
  );
  const includes = (options.gitIncludes ?? []).map((file) =>
    compile(escapeGlob(file), `default denyWrite git include ${file}`, INCLUDE_WHY),
  );
  const commands = (options.commandFiles ?? []).map((file) =>
    compile(escapeGlob(file), `default denyWrite agent command ${file}`, COMMAND_WHY),
  );
  const programs = (options.programFolders ?? []).map((folder) =>
    compile(`${escapeGlob(folder)}/**`, `default denyWrite PATH folder ${folder}`, PROGRAMS_WHY),
  );
  return {
    writeBefore: [
      ...defaults("Write", DEFAULT_DENY_WRITE),
      folding ? BARE_REPOSITORY_FOLDED : BARE_REPOSITORY,
      ...state,
    ],
    writeAfter: [...hooks, ...includes, ...commands, ...programs, ...configured("Write", options.denyWrite)],
    readBefore: [...defaults("Read", DEFAULT_DENY_READ), ...state],
    readAfter: configured("Read", options.denyRead),
  };
}

/**
 * `base` with the reserved paths' rules in their place: each reserved path denied for writes
 * ("reserved by NAME P"), and for reads too when it is hidden; a literal path (glob characters in
 * it mean nothing), `P/**` covering P itself and what is below.
 */
export function withReserved(
  base: BaseRules,
  entries: readonly ReservedPath[],
  options: { folding: boolean; home: string },
): PolicyRules {
  const reserved = (list: readonly ReservedPath[]) =>
    list.map((r) =>
      sharedDenyRule({
        pattern: `${escapeGlob(r.path)}/**`,
        label: `reserved by ${r.by} ${r.path}`,
        why: r.why,
        folding: options.folding,
        home: options.home,
      }),
    );
  return {
    write: [...base.writeBefore, ...reserved(entries), ...base.writeAfter],
    read: [...base.readBefore, ...reserved(entries.filter((r) => r.hide)), ...base.readAfter],
  };
}

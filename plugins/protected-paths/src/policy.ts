import { realpathSync } from "node:fs";
import path from "node:path";
import type { ReservedPath, SandboxProfile, ToolEffect } from "@gatehouse/sdk";
import { type BashMode, checkExec } from "./check/check-exec.ts";
import { checkTreeSearch, type TreeSearch } from "./check/check-search.ts";
import { type EvaluateOptions, evaluatePath } from "./check/evaluate-path.ts";
import { GlobTooSlow, withGlobBudget } from "./check/glob-budget.ts";
import { type GlobTargets, globTargets, isGlobPath } from "./check/glob-effect.ts";
import { composeScreen } from "./check/literal-screen.ts";
import { matchView } from "./check/match-view.ts";
import type { Access, PolicyContext } from "./check/policy-context.ts";
import type { ProtectedPathsConfig } from "./config.ts";
import { allow, type Decision, deny } from "./decision.ts";
import { detectCaseFolding } from "./paths/case-folding.ts";
import { accountHome, homeSpellings, normalHome } from "./paths/expand-home.ts";
import { fileUrlTarget } from "./paths/file-url.ts";
import { showPath } from "./paths/path-text.ts";
import { nodePolicyFs, type PolicyFs } from "./paths/policy-fs.ts";
import { resolveRoots, type WorkspaceRoot } from "./paths/workspace.ts";
import { agentCommandFiles } from "./rules/agent-command-files.ts";
import type { DenyRule } from "./rules/deny-rule.ts";
import { configuredGitIncludes, configuredHooksFolders } from "./rules/git-hooks-path.ts";
import { LinkProbe, linkAliasPatterns } from "./rules/link-aliases.ts";
import { type BaseRules, compileBaseRules, withReserved } from "./rules/policy-rules.ts";
import { programFolders } from "./rules/program-folders.ts";
import { sharedDenyRule } from "./rules/shared-deny-rule.ts";
import { createSandboxPlanner } from "./sandbox/sandbox-planner.ts";
import { type AliasTable, aliasIn, buildAliasTable } from "./scan/alias-table.ts";
import { DenyIndex } from "./scan/deny-index.ts";

/** Where a policy runs. */
export interface PolicyOptions {
  /** The project directory: relative paths and relative workspace roots resolve against it. */
  cwd: string;
  /** What `~` expands to. */
  home: string;
  /**
   * The account's own home directory, when `home` (HOME) may be elsewhere: every `~` rule applies
   * there too, so the account's credentials stay denied whatever HOME says. Default: the user
   * database's entry for this process (`os.userInfo()`); `""` for none.
   */
  accountHome?: string;
  /** The filesystem to consult (default: the real one, synchronously). */
  fs?: PolicyFs;
  /** Gatehouse's own state (GATEHOUSE_HOME): denied for reads and writes when given. */
  gatehouseHome?: string;
  /** Paths Gatehouse and extensions reserved (`api.reservedPaths()`): writes denied, reads too when hidden. */
  reserved?: readonly ReservedPath[];
  /**
   * For commands no sandbox will confine (another agent's, decided in its hooks): how a `bash` of
   * "sandbox" or "analyze" decides them — "unconfined" (the default then: refuse whatever the
   * analysis does not model) or "analyze" (best effort). "deny" and "allow" stay as configured.
   */
  unconfinedBash?: "unconfined" | "analyze";
}

/** The settings a policy decided with, after defaults and resolution (for explanations). */
export interface PolicySettings {
  workspace: readonly WorkspaceRoot[];
  caseInsensitive: boolean;
  denyWrite: readonly string[];
  denyRead: readonly string[];
  allowOutsideWorkspace: { read: boolean; write: boolean };
  bash: BashMode;
  network: "deny" | "allow";
  undeclaredEffects: "allow" | "deny";
}

/** A compiled path policy. */
export interface Policy {
  readonly settings: PolicySettings;
  /** Decides one effect of a tool call. */
  check(effect: ToolEffect): Decision;
  /** Decides one read or write of a path (what `check` does for read/write effects). */
  checkPath(access: Access, path: unknown, options?: EvaluateOptions): Decision;
  /**
   * A read filter for one call (`ctx.canRead`): true when reading the absolute path is allowed.
   * Hard-link aliases of protected files are looked up once per filter, so a walk stays fast.
   */
  readFilter(): (absolutePath: string) => boolean;
  /**
   * Decides a content search of a whole tree by a tool no read filter can narrow (another agent's
   * `Grep`): a read of its root, and no protected file below that the search would read.
   */
  checkSearch(search: TreeSearch): Decision;
  /** The sandbox of one confined call, built from this policy (mode "sandbox"). */
  sandboxProfile(options: { quarantineDir: () => string }): SandboxProfile;
}

/** How a read filter checks a path: tools hand it absolute paths, never `~`. */
const FILTER_OPTIONS: EvaluateOptions = Object.freeze({ expandHome: false });

/** "Write to "x"", or just "Write" when there is no path worth quoting. */
function subjectFor(access: Access, path: unknown): string {
  const quotable = typeof path === "string" && path.trim().length > 0;
  if (access === "write") return quotable ? `Write to ${showPath(path)}` : "Write";
  return quotable ? `Read of ${showPath(path)}` : "Read";
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** What a policy resolves from the filesystem: the roots, case folding, GATEHOUSE_HOME, git's hooks folders. */
interface PolicyGround {
  fs: PolicyFs;
  /** The home directory, normalised (`normalHome`). */
  home: string;
  /** Its real path when that differs: `~` rules are anchored there too. */
  otherHomes: readonly string[];
  roots: readonly WorkspaceRoot[];
  /** The project directory, the roots and every level's roots (`ruleAnchors`): see `PolicyContext.anchors`. */
  anchors: readonly WorkspaceRoot[];
  folding: boolean;
  stateHome: string | undefined;
  hooksFolders: readonly string[];
  /** Files git's configuration includes (see `configuredGitIncludes`). */
  gitIncludes: readonly string[];
  /** Scripts that agents' and editors' configured commands run (see `agentCommandFiles`). */
  commandFiles: readonly string[];
  /** Folders programs are looked up in that the user can write (see `programFolders`). */
  programFolders: readonly string[];
  /** Symbolic links along the rules' literal paths, looked up once however often the policy is rebuilt. */
  probe: LinkProbe;
  /**
   * Each rule's link-alias rules, computed once per ground: a rebuild for a new reserved-path list
   * (an extension loaded later reserved its log) then only compiles the reserved rules, instead of
   * walking every rule's anchors again inside the run whose first call saw the new list.
   */
  aliasMemo: WeakMap<DenyRule, readonly DenyRule[]>;
  /** The rules apart from the reserved paths', compiled at the first build (see `compileBaseRules`). */
  base?: BaseRules;
  /** The link-alias rules of the base rules, in their order (reserved paths are real paths: none). */
  baseAliases?: { write: readonly DenyRule[]; read: readonly DenyRule[] };
}

/** Each root once (by both spellings), in order. */
function distinctRoots(roots: readonly WorkspaceRoot[]): WorkspaceRoot[] {
  const seen = new Set<string>();
  return roots.filter((root) => {
    const key = `${root.absolute}\0${root.real}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function groundOf(parsed: ProtectedPathsConfig, options: PolicyOptions): PolicyGround {
  const fs = options.fs ?? nodePolicyFs;
  const { cwd } = options;
  // HOME as the environment gives it may end in `/.`, hold `//` or `..`: normalised once, and the
  // `~` rules anchored at its real path as well.
  const [home = normalHome(options.home), ...spellings] = homeSpellings(options.home);
  // The `~` rules hold at the account's own home too: a HOME set elsewhere must not unmask it.
  const account = options.accountHome ?? accountHome();
  const otherHomes = [...new Set([...spellings, ...(account ? homeSpellings(account) : [])])].filter((h) => h !== home);
  const roots = resolveRoots(parsed.workspace ?? [cwd], { cwd, home, fs });
  // A lower settings level may narrow the workspace, which must never loosen anything: the rules
  // keep every place a level meant them for (the project directory, each level's roots).
  const anchors = distinctRoots([...roots, ...resolveRoots([cwd, ...(parsed.ruleAnchors ?? [])], { cwd, home, fs })]);
  // "auto" folds when any place the rules apply to folds: folding only ever matches more.
  const folding =
    parsed.caseInsensitive === "auto"
      ? detectCaseFolding(roots[0]?.real ?? cwd, fs) || anchors.some((a) => detectCaseFolding(a.real, fs))
      : parsed.caseInsensitive;
  const stateHome = options.gatehouseHome === undefined ? undefined : realOrSelf(path.resolve(options.gatehouseHome));
  const anchorReals = anchors.map((r) => r.real);
  const hooksFolders = configuredHooksFolders(anchorReals, home);
  const gitIncludes = configuredGitIncludes(anchorReals, home);
  const managedSettings = process.env.GATEHOUSE_MANAGED_SETTINGS;
  const commandFiles = agentCommandFiles(anchorReals, { home, gatehouseHome: stateHome, managedSettings });
  const programs = programFolders({ envPath: process.env.PATH, home, places: anchorReals });
  return {
    fs,
    home,
    otherHomes,
    roots,
    anchors,
    folding,
    stateHome,
    hooksFolders,
    gitIncludes,
    commandFiles,
    programFolders: programs,
    probe: new LinkProbe(fs),
    aliasMemo: new WeakMap(),
  };
}

/**
 * Compiles a policy from an already parsed `protected-paths` configuration (what the extension's
 * `api.config` returned, defaults filled in). This module loads no schema library, so a process
 * that only decides (an agent hook) starts fast; `createPolicy` parses first.
 * Contract: roots, case folding ("auto": any root or anchor folds) and globs are resolved once; each
 * check afterwards only consults `fs`, except the hard-link check of reads and the sandbox, which
 * consult the real filesystem through the deny index.
 */
export function compilePolicy(parsed: ProtectedPathsConfig, options: PolicyOptions): Policy {
  return buildPolicy(parsed, options, groundOf(parsed, options));
}

/**
 * Compiles one configuration in one place again and again, for a reserved-path list that grows
 * (extensions reserve their files while they load): the filesystem is consulted once, at the
 * first compile, and every later policy differs only in its reserved-path rules.
 * Contract: `compiler(reserved)` equals `compilePolicy(parsed, { ...options, reserved })` for a
 * filesystem unchanged since the first call.
 */
export function policyCompiler(
  parsed: ProtectedPathsConfig,
  options: Omit<PolicyOptions, "reserved">,
): (reserved: readonly ReservedPath[]) => Policy {
  const ground = groundOf(parsed, options);
  return (reserved) => buildPolicy(parsed, { ...options, reserved }, ground);
}

function buildPolicy(parsed: ProtectedPathsConfig, options: PolicyOptions, ground: PolicyGround): Policy {
  const { cwd } = options;
  const { fs, roots, anchors, folding, home } = ground;
  ground.base ??= compileBaseRules({
    denyWrite: parsed.denyWrite,
    denyRead: parsed.denyRead,
    folding,
    home,
    otherHomes: ground.otherHomes,
    gatehouseHome: ground.stateHome,
    hooksFolders: ground.hooksFolders,
    gitIncludes: ground.gitIncludes,
    commandFiles: ground.commandFiles,
    programFolders: ground.programFolders,
  });
  const baseRules = ground.base;
  const rules = withReserved(baseRules, options.reserved ?? [], { folding, home });
  // The reserved paths' rules sit between the base rules' two parts (see `withReserved`).
  const reservedWrite = rules.write.slice(
    baseRules.writeBefore.length,
    rules.write.length - baseRules.writeAfter.length,
  );
  const reservedRead = rules.read.slice(baseRules.readBefore.length, rules.read.length - baseRules.readAfter.length);
  // The same protection where a symbolic link leads (`~/.aws -> ~/dotfiles/aws`); reserved paths
  // are real paths already.
  const anchorReals = [...new Set(anchors.map((r) => r.real))];
  const aliasesOfRule = (rule: DenyRule): readonly DenyRule[] => {
    const known = ground.aliasMemo.get(rule);
    if (known) return known;
    const aliases = linkAliasPatterns(rule, anchorReals, ground.probe).map((pattern) =>
      // As far down as the rule reaches (a read rule's folder: everything inside it).
      sharedDenyRule({ pattern, label: rule.label, why: rule.why, folding, home, contents: rule.subtree }),
    );
    ground.aliasMemo.set(rule, aliases);
    return aliases;
  };
  const aliasesOf = (...lists: (readonly DenyRule[])[]) => lists.flatMap((list) => list.flatMap(aliasesOfRule));
  ground.baseAliases ??= {
    write: aliasesOf(baseRules.writeBefore, baseRules.writeAfter),
    read: aliasesOf(baseRules.readBefore, baseRules.readAfter),
  };
  const aliasRules = ground.baseAliases;
  rules.write.push(...aliasRules.write);
  rules.read.push(...aliasRules.read);
  // Each list's literal screen is made of its parts' screens, which (but the reserved rules') are
  // built once per ground: a rebuild for a grown reserved-path list builds no big screen again.
  composeScreen(rules.write, [baseRules.writeBefore, reservedWrite, baseRules.writeAfter, aliasRules.write]);
  composeScreen(rules.read, [baseRules.readBefore, reservedRead, baseRules.readAfter, aliasRules.read]);
  const allowOutside = parsed.allowOutsideWorkspace;
  const base: PolicyContext = { cwd, home, fs, roots, anchors, folding, rules, allowOutside };
  const view = (absolute: string) => matchView(base, absolute);
  let index: DenyIndex | undefined;
  const denyIndex = () => {
    // Every anchor, not only the workspace: the sandbox masks what the rules deny there too (a
    // narrowed workspace leaves the project's `.env` readable outside it otherwise).
    index ??= new DenyIndex({ roots: anchorReals, rules, view, folding });
    return index;
  };
  const aliases = (): AliasTable => buildAliasTable({ index: denyIndex(), readRules: rules.read, view });
  // Checks of single calls look aliases up afresh; a read filter builds its table once.
  const ctx: PolicyContext = { ...base, aliasOf: (info) => aliasIn(aliases(), info) };
  const settings: PolicySettings = {
    workspace: roots,
    caseInsensitive: folding,
    denyWrite: parsed.denyWrite,
    denyRead: parsed.denyRead,
    allowOutsideWorkspace: parsed.allowOutsideWorkspace,
    bash: parsed.bash,
    network: parsed.network,
    undeclaredEffects: parsed.undeclaredEffects,
  };
  const confinable = parsed.bash === "sandbox" || parsed.bash === "analyze";
  const execMode: BashMode = options.unconfinedBash && confinable ? options.unconfinedBash : parsed.bash;
  const planner = createSandboxPlanner({
    ctx,
    index: denyIndex,
    network: parsed.network === "allow",
    readDenied: aliases,
  });

  /**
   * One read or write: the path as given and, when it is a `file:` URL, the path the URL names (a
   * tool that takes a path or a URL opens that one: `file:///work/%2Eenv` read .env, checked as a
   * file named "file:" below the workspace). The first refusal decides.
   */
  function decide(context: PolicyContext, access: Access, path: unknown, checkOptions?: EvaluateOptions): Decision {
    const given = decidePath(context, access, path, checkOptions);
    const named = fileUrlTarget(path);
    if (named === undefined || !given.allow) return given;
    if (named === null) {
      const why = "it is a file: URL that names no local file (another host, or an escaped / or NUL)";
      return deny({ subject: subjectFor(access, path), why, rule: "file URL", spellings: given.spellings });
    }
    const viaUrl = decidePath(context, access, named, checkOptions);
    return viaUrl.allow ? given : viaUrl;
  }

  function decidePath(context: PolicyContext, access: Access, path: unknown, checkOptions?: EvaluateOptions): Decision {
    const verdict = evaluatePath(context, access, path, checkOptions);
    if (verdict.ok) return allow(verdict.views.spellings, verdict.identity);
    return deny({
      subject: subjectFor(access, path),
      why: verdict.why,
      rule: verdict.rule,
      spellings: verdict.spellings,
    });
  }

  function check(effect: ToolEffect): Decision {
    const kind: unknown = (effect as { kind?: unknown } | null)?.kind;
    switch (kind) {
      case "read":
      case "write": {
        const given: unknown = (effect as { path?: unknown }).path;
        const decision = decide(ctx, kind, given);
        return decision.allow ? decideGlob(kind, given, decision) : decision;
      }
      case "exec":
        return checkExec(ctx, { mode: execMode, command: (effect as { command?: unknown }).command });
      case "net":
        // Network access is out of this plugin's scope.
        return allow();
      default: {
        const why = `the effect kind ${JSON.stringify(kind) ?? "undefined"} is unknown to the path policy, so the call cannot be checked`;
        return deny({ subject: "Effect", why, rule: "unknown effect" });
      }
    }
  }

  /**
   * An effect's path that holds glob characters, as a pattern the tool may expand (`src/*`,
   * `**\/.env`): refused when any path it may stand for is (see `globTargets`), or when what it
   * stands for cannot be known. The path as written was allowed already (`allowed`, returned as the
   * decision when every match passes); a `file:` URL is judged by the path it names.
   */
  function decideGlob(access: Access, given: unknown, allowed: Decision): Decision {
    if (typeof given !== "string") return allowed;
    const named = fileUrlTarget(given);
    const text = typeof named === "string" ? named : given;
    if (!isGlobPath(text)) return allowed;
    const refuse = (why: string, rule: string) =>
      deny({ subject: subjectFor(access, given), why: `it is a glob pattern a tool may expand, and ${why}`, rule });
    let targets: GlobTargets;
    try {
      targets = withGlobBudget(() => globTargets(text, { cwd, home, fs }));
    } catch (error) {
      if (!(error instanceof GlobTooSlow)) throw error;
      return refuse(error.message, "glob effect");
    }
    if ("problem" in targets) return refuse(`${targets.problem}; name the files instead`, "glob effect");
    for (const target of targets.paths) {
      const verdict = evaluatePath(ctx, access, target, FILTER_OPTIONS);
      if (!verdict.ok) return refuse(`it matches ${showPath(target)}: ${verdict.why}`, verdict.rule);
    }
    return allowed;
  }

  function readFilter(): (absolutePath: string) => boolean {
    // Made at the filter's first use: most tools given a filter (read, write, custom tools) never call it.
    let filtered: PolicyContext | undefined;
    const filteredContext = (): PolicyContext => {
      let table: AliasTable | undefined;
      return {
        ...base,
        aliasOf: (info) => {
          table ??= aliases();
          return aliasIn(table, info);
        },
      };
    };
    return (absolutePath) => {
      filtered ??= filteredContext();
      return evaluatePath(filtered, "read", absolutePath, FILTER_OPTIONS).ok;
    };
  }

  return {
    settings,
    check,
    checkPath: (access, path, checkOptions) => decide(ctx, access, path, checkOptions),
    readFilter,
    checkSearch: (search) => {
      const root = decide(ctx, "read", search.root);
      if (!root.allow) return root;
      // Another name of a protected file (a hard link) is read as that file.
      const table = aliases();
      const any = [...table.values()].some((entry) => (fs.lstat(entry.path)?.nlink ?? 1) > 1);
      return checkTreeSearch(ctx, search, { any, aliasOf: (info) => aliasIn(table, info) });
    },
    sandboxProfile: (profileOptions) => planner.profile(profileOptions),
  };
}

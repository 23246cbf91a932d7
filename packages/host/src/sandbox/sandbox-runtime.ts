import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type {
  SandboxLayout,
  SandboxPlan,
  SandboxProfile,
  SandboxRunOptions,
  SandboxRunResult,
  SandboxViolation,
} from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import { ensurePrivateDir } from "../config/private-dir.ts";
import type { ConfinedSandbox } from "../loop/types.ts";
import { FEED_FD, runShell } from "../tools/run-shell.ts";
import { bwrapArgs } from "./bwrap-args.ts";
import { checkLayout } from "./check-layout.ts";
import { type BwrapLocation, findBwrap } from "./find-bwrap.ts";
import { sandboxEnv } from "./sandbox-env.ts";
import { INSTALL_HINT, type SandboxSupport, sandboxSupport } from "./sandbox-support.ts";
import { keyringFilter } from "./seccomp-filter.ts";
import { SetupWatch } from "./setup-watch.ts";

/** Where the sandbox runtime gets its settings. */
export interface SandboxRuntimeOptions {
  /** GATEHOUSE_HOME: hidden from every sandboxed process; holds the empty file masks are made of. */
  gatehouseHome: string;
  /** The host's environment: `GATEHOUSE_BWRAP` (the absolute path of the bwrap to use), `GATEHOUSE_MANAGED_SETTINGS`, and what commands inherit. */
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** The descriptor bwrap reports its status on (`runShell`'s `status` pipe). */
const STATUS_FD = 3;

/** How many times a confined run is planned and started when bwrap fails to set up its sandbox. */
export const SETUP_ATTEMPTS = 3;

/** The seccomp filter of every run (no kernel keyrings), compiled once; none where the architecture is unknown. */
const FILTER = keyringFilter();

const NOT_RUN = { exitCode: null, exitSignal: null, timedOut: false, aborted: false, violations: [] } as const;

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where the command starts inside the sandbox: the real path of `cwd`. The sandbox mounts the
 * workspace at its real path, and a link on the way to it may not exist there at all (a project
 * reached through a link in /tmp, which is private in the sandbox): bwrap then could not chdir and
 * nothing ran. `cwd` itself when it cannot be resolved (bwrap then says why).
 */
function sandboxCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

/**
 * What the sandbox runs first: a shell that closes every descriptor above 2 it was handed, then
 * becomes `bash -c <command>`. Node and bwrap close only what they opened themselves, so a
 * descriptor the process that started Gatehouse left open (an IDE's pipe, a file a wrapper opened)
 * reached the model's command, which could read or write through it (`cat <&7`, `echo >&251`).
 */
const CLOSE_INHERITED_THEN_RUN =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
  'for fd in /proc/self/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-" 2>/dev/null; done; exec bash -c "$1"';

/**
 * Runs confined commands for one host: knows where bwrap is, whether it can start, and which of
 * Gatehouse's own files no layout may expose.
 * Contract: a run either happens inside bwrap or not at all (a `spawnError` that says why and how
 * to install bubblewrap); Gatehouse's home is hidden and managed settings read-only in every run,
 * and the kernel keyrings of the session that started Gatehouse out of reach (`keyringFilter`);
 * a command starts at most once per run, however often its sandbox had to be set up.
 */
export class SandboxRuntime {
  readonly #bwrap: BwrapLocation;
  readonly #options: SandboxRuntimeOptions;
  /** The sandbox folder once its chain was checked private; the empty file itself is checked every run. */
  #folder: string | undefined;

  constructor(options: SandboxRuntimeOptions) {
    this.#options = options;
    this.#bwrap = findBwrap(options.env);
  }

  /** Whether a sandbox can start here (probed once per process). */
  support(): Promise<SandboxSupport> {
    const platform = this.#options.platform ?? process.platform;
    if ("missing" in this.#bwrap && platform === "linux") {
      return Promise.resolve({ ok: false, reason: this.#bwrap.missing, fix: INSTALL_HINT });
    }
    const bwrap = "path" in this.#bwrap ? this.#bwrap.path : "bwrap";
    return sandboxSupport({ bwrap, platform });
  }

  /** The sandbox a tool gets for one call a guard confined with `profile`. */
  confine(profile: SandboxProfile, confinedBy: string): ConfinedSandbox {
    const undone: SandboxViolation[] = [];
    return {
      confinedBy,
      violations: () => undone,
      run: async (options) => {
        const result = await this.#run(profile, confinedBy, options);
        undone.push(...result.violations);
        return result;
      },
    };
  }

  /**
   * An empty read-only file in Gatehouse's home (out of every sandbox's sight) to mask files with.
   * Contract: made under a name of this process's own and renamed into place, so processes sharing
   * GATEHOUSE_HOME that make it at once never fail on each other (`wx` on the shared name did: EEXIST).
   */
  #emptyFile(): string {
    this.#folder ??= ensurePrivateDir(this.#options.gatehouseHome, "sandbox");
    const file = path.join(this.#folder, "empty");
    const info = lstatSync(file, { throwIfNoEntry: false });
    if (info?.isFile() && info.size === 0) return file;
    const own = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
    writeFileSync(own, "", { mode: 0o444, flag: "wx" });
    try {
      renameSync(own, file);
    } catch (error) {
      rmSync(own, { force: true });
      throw error;
    }
    return file;
  }

  #argv(layout: SandboxLayout, options: SandboxRunOptions, disableUserns: boolean): [string, ...string[]] {
    const home = this.#options.env.HOME ?? "/root";
    const managed = this.#options.env.GATEHOUSE_MANAGED_SETTINGS;
    const args = bwrapArgs({
      layout,
      hostHidden: [this.#options.gatehouseHome].filter(existsSync),
      hostReadOnly: managed ? [path.resolve(managed)].filter(existsSync) : [],
      emptyFile: this.#emptyFile(),
      isDirectory,
      home,
      cwd: sandboxCwd(options.cwd),
      command: ["bash", "-c", CLOSE_INHERITED_THEN_RUN, "bash", options.command],
      disableUserns,
      statusFd: STATUS_FD,
      ...(FILTER ? { seccompFd: FEED_FD } : {}),
    });
    if (!("path" in this.#bwrap)) throw new Error(this.#bwrap.missing);
    return [this.#bwrap.path, ...args];
  }

  /**
   * Plans and starts the sandbox afresh while bwrap fails to set it up: a path the plan mounts over
   * may vanish or change kind before bwrap mounts it (another process, another sandbox's review).
   * Contract: each attempt gets a fresh plan, and each plan its review (violations add up); an
   * attempt is repeated only when `SetupWatch` shows its command never started, so no command
   * runs twice; all attempts share the call's timeout; after SETUP_ATTEMPTS failures, or an abort
   * in between, nothing ran and `spawnError` says why in bwrap's words.
   */
  async #run(profile: SandboxProfile, confinedBy: string, options: SandboxRunOptions): Promise<SandboxRunResult> {
    const support = await this.support();
    if (!support.ok) {
      return { ...NOT_RUN, spawnError: new Error(`the sandbox cannot start: ${support.reason}; ${support.fix}`) };
    }
    const deadline = Date.now() + options.timeoutMs;
    const violations: SandboxViolation[] = [];
    let failure = "";
    for (let attempt = 1; attempt <= SETUP_ATTEMPTS; attempt += 1) {
      const timeoutMs = attempt === 1 ? options.timeoutMs : deadline - Date.now();
      if (options.signal.aborted || timeoutMs <= 0) break;
      const outcome = await this.#attempt({
        profile,
        confinedBy,
        options,
        timeoutMs,
        disableUserns: support.disableUserns,
      });
      violations.push(...outcome.violations);
      if (outcome.setupFailure === undefined) return { ...outcome.result, violations };
      failure = outcome.setupFailure;
    }
    const why =
      `bubblewrap could not set up the sandbox ${confinedBy} asked for (${failure}); planned afresh and tried ` +
      `${SETUP_ATTEMPTS} times while files it protects kept appearing or disappearing, so nothing ran`;
    return { ...NOT_RUN, aborted: options.signal.aborted, violations, spawnError: new Error(why) };
  }

  /** One plan, one bwrap start, one review; `setupFailure` (bwrap's words) when the command never started. */
  async #attempt(a: {
    profile: SandboxProfile;
    confinedBy: string;
    options: SandboxRunOptions;
    timeoutMs: number;
    disableUserns: boolean;
  }): Promise<{ result: SandboxRunResult; violations: SandboxViolation[]; setupFailure?: string }> {
    const { options, confinedBy } = a;
    let plan: SandboxPlan | undefined;
    let argv: [string, ...string[]];
    try {
      plan = await a.profile.prepare();
      checkLayout(plan.layout, confinedBy);
      argv = this.#argv(plan.layout, options, a.disableUserns);
    } catch (error) {
      const why = `the sandbox ${confinedBy} asked for could not be set up (${errorMessage(error)}), so nothing ran`;
      // A plan that never ran is still reviewed: the guard then knows its run is over.
      const violations = plan === undefined ? [] : await review(plan, confinedBy, options.cwd);
      return { result: { ...NOT_RUN, spawnError: new Error(why), violations }, violations };
    }
    const watch = new SetupWatch({
      stdout: (chunk) => options.onData(chunk),
      stderr: (chunk) => (options.onStderr ?? options.onData)(chunk),
    });
    const exit = await runShell({
      command: options.command,
      cwd: options.cwd,
      timeoutMs: a.timeoutMs,
      signal: options.signal,
      onData: watch.stdout,
      onStderr: watch.stderr,
      ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
      argv,
      env: sandboxEnv(this.#options.env),
      status: watch.status,
      ...(FILTER ? { feed: FILTER } : {}),
    });
    const setupFailure = watch.settle(exit);
    const violations = await review(plan, confinedBy, options.cwd);
    const result = { ...exit, violations };
    return setupFailure === undefined ? { result, violations } : { result, violations, setupFailure };
  }
}

/** The guard's review after the run; a review that fails counts as a violation (fail closed). */
async function review(plan: SandboxPlan, confinedBy: string, cwd: string): Promise<SandboxViolation[]> {
  if (!plan.review) return [];
  try {
    return [...(await plan.review())];
  } catch (error) {
    const reason = `${confinedBy} could not check what the command changed (${errorMessage(error)}), so the call counts as blocked.`;
    return [{ path: cwd, rule: "sandbox review failed", reason }];
  }
}

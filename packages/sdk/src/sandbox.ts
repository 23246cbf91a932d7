/**
 * What a confined process sees. Paths are absolute and already resolved through symlinks; every
 * one of `readOnly`, `masked` and `pinned` exists when the layout is made.
 */
export interface SandboxLayout {
  /** Directories the process may change (the workspace roots). */
  writable: readonly string[];
  /**
   * The rest of the filesystem: `"read-only"`; `"hidden"` (only the system directories needed to
   * run programs stay, read-only); or `"writable"`.
   */
  outside: "read-only" | "hidden" | "writable";
  /** Paths bound read-only on top of the writable ones: protected files and directories. */
  readOnly: readonly string[];
  /** Paths masked: a file reads as empty, a directory as empty; both read-only. */
  masked: readonly string[];
  /** Directories that must stay where they are: renaming or removing them fails, their contents stay writable. */
  pinned: readonly string[];
  /** Network access; without it the process gets a network namespace of its own. */
  network: boolean;
}

/** Something a confined process created or changed that the policy protects, already undone by the guard. */
export interface SandboxViolation {
  /** The path, as it was at the end of the run. */
  path: string;
  /** The rule that protects it, e.g. "default denyWrite .env". */
  rule: string;
  /** One sentence for the model: what was undone and why. */
  reason: string;
}

/** One confined process run, as a guard plans it. */
export interface SandboxPlan {
  layout: SandboxLayout;
  /**
   * Called once the process and everything it started are gone: finds what the run created that
   * no layout could protect in advance (a new file matching a deny rule), undoes it and returns it.
   */
  review?(): readonly SandboxViolation[] | Promise<readonly SandboxViolation[]>;
}

/**
 * A guard's confinement of one call (`GuardedToolCallEvent.confine`).
 * Contract: `prepare` is called right before each process the call starts, so the layout reflects
 * the filesystem as it is then, not as it was when the guard checked the call.
 */
export interface SandboxProfile {
  prepare(): SandboxPlan | Promise<SandboxPlan>;
}

/** Options of `ToolSandbox.run`. */
export interface SandboxRunOptions {
  /** A bash command line. */
  command: string;
  /** The working directory; must lie where the layout lets the process see it. */
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Receives stdout and stderr chunks interleaved in arrival order (stdout only when `onStderr` is given). */
  onData: (chunk: Uint8Array) => void;
  /** Receives stderr apart from stdout (e.g. a hook command whose stdout is its answer). */
  onStderr?: (chunk: Uint8Array) => void;
  /** Text written to the command's stdin, which is then closed (default: no stdin). */
  stdin?: string;
}

/** How a confined run ended. */
export interface SandboxRunResult {
  /** The shell's exit code; null when it was killed by a signal or never started. */
  exitCode: number | null;
  exitSignal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Set when the sandbox or the shell could not be started; nothing ran. */
  spawnError?: Error;
  /** What the guard undid after the run; when non-empty the host reports the call as blocked. */
  violations: readonly SandboxViolation[];
}

/**
 * The confinement the host hands a tool as `ctx.sandbox` when a guard confined the call. A tool
 * that declares `honoursSandbox: true` starts every process of the call through it; the host
 * refuses a confined call to a tool that does not declare it.
 */
export interface ToolSandbox {
  /** The extension that confined the call. */
  readonly confinedBy: string;
  /**
   * Runs `bash -c command` in the sandbox, in a process namespace of its own: every process the
   * command starts ends with it (timeout and abort kill them all).
   * Contract: never rejects; a sandbox that cannot start is a `spawnError`, never an unconfined run.
   */
  run(options: SandboxRunOptions): Promise<SandboxRunResult>;
}

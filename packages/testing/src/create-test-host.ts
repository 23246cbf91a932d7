import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createHost,
  createScriptedModel,
  type ExtensionRecord,
  type Host,
  type HostOptions,
  loadScript,
  parseScript,
  type RunResult,
  type Script,
  type ScriptTurn,
} from "@gatehouse/host";
import type {
  AnyToolDefinition,
  ExecutionMode,
  ExtensionDefinition,
  ExtensionExport,
  GatehouseEvent,
  GatehouseEventOf,
  GatehouseEventType,
  Message,
} from "@gatehouse/sdk";
import { pino } from "pino";
import { type AuditEntry, CallRecorder } from "./call-records.ts";
import { type BlockedExpectation, entryOf, expectBlocked, expectExecuted } from "./expectations.ts";
import { inside, snapshot, writeFiles } from "./project-files.ts";

/** Options of `createTestHost`. */
export interface TestHostOptions {
  /** The extensions under test, set up in order (definitions or bare setup functions). */
  extensions?: readonly ExtensionExport[];
  /** Extra tools, as `createHost({ tools })` takes them. */
  tools?: readonly AnyToolDefinition[];
  /** The scripted model's answers, one per model request (see `turn` and `toolCall`). */
  turns?: readonly ScriptTurn[];
  /** Instead of `turns`: a script (`{ prompt?, turns }`) or the path of a script JSON file. */
  script?: Script | string;
  /** Files of the temp project, by relative path, written before the host starts. */
  files?: Readonly<Record<string, string>>;
  /** Configuration sections by extension name (`config.<name>`), taking precedence over settings. */
  config?: Record<string, unknown>;
  /**
   * The project's `.gatehouse/settings.json`. When given, the host discovers the project as the
   * CLI does (extensions by name or path, drop-ins, settings levels), with the project trusted.
   */
  settings?: Record<string, unknown>;
  /** Environment for the host; `GATEHOUSE_HOME` is a fresh temp directory unless set here or by `home`. */
  env?: Record<string, string | undefined>;
  /** Use this existing directory as the project instead of a fresh one (it is not removed on close). */
  cwd?: string;
  /** Use this existing directory as `GATEHOUSE_HOME` (it is not removed on close). */
  home?: string;
  /** "parallel" (default) or "sequential" for every batch. */
  toolExecution?: ExecutionMode;
  /** Time limit for each handler, setup and disposer, in ms (default 5000). */
  hookTimeoutMs?: number;
  /** Ends a run after this many model requests. */
  maxTurns?: number;
  /** Keep going when an extension fails to load (default: `createTestHost` rejects, naming it). */
  allowLoadErrors?: boolean;
  /** pino level of the host's log on stderr (default "silent": failures are events you can assert on). */
  logLevel?: string;
  /** A pino logger for the host instead (e.g. one that collects lines for the test to read). */
  logger?: HostOptions["logger"];
  /** Called for every event as it happens, e.g. to steer, reload or edit files mid-run. */
  onEvent?: (event: GatehouseEvent, t: TestHost) => void;
}

/** A real host over a temp project with a scripted model, and what its runs did. */
export interface TestHost {
  /** The host itself, for anything the helpers do not cover. */
  readonly host: Host;
  /** The project directory. */
  readonly cwd: string;
  /** The `GATEHOUSE_HOME` of this host (trust, audit logs and keys live there). */
  readonly home: string;
  /** Every event so far, extension loading included. */
  readonly events: readonly GatehouseEvent[];
  /** The context the next model request would receive: prompts, answers and tool results. */
  readonly transcript: readonly Message[];
  /** One entry per tool call that ended, in the order they ended: outcome, arguments, who blocked it and why. */
  readonly audit: readonly AuditEntry[];
  /** Runs the agent loop from a prompt (default: the script's prompt, else "go"); one run at a time. */
  run(prompt?: string): Promise<RunResult>;
  /** The events of one type so far. */
  eventsOf<K extends GatehouseEventType>(type: K): GatehouseEventOf<K>[];
  /** The audit entry of one call; throws naming the calls there were when it has not ended. */
  call(toolCallId: string): AuditEntry;
  /** Throws unless the call was blocked (by `by`, for `reason`: exact text or a RegExp); returns its entry. */
  expectBlocked(toolCallId: string, expected?: BlockedExpectation): AuditEntry;
  /** Throws unless the call ran and succeeded; returns its entry. */
  expectExecuted(toolCallId: string): AuditEntry;
  /** The files created or changed in the project since the host was created, by relative path, as text. */
  written(): Record<string, string>;
  /** A project file's text, or undefined when it does not exist. */
  file(path: string): string | undefined;
  /** Writes project files (by relative path), e.g. to change settings before `host.reload()`. */
  write(files: Readonly<Record<string, string>>): void;
  /** Every extension with its status, tools, handlers and errors. */
  extensions(): ExtensionRecord[];
  /** Closes the host (every extension's `onDispose` runs) and removes the temp directories it created. */
  close(): Promise<void>;
}

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

async function scriptOf(options: TestHostOptions): Promise<Script> {
  if (options.turns && options.script !== undefined) {
    throw new Error("createTestHost: give either turns or script, not both.");
  }
  if (typeof options.script === "string") return loadScript(options.script);
  // Validated like a script file, so a malformed turn is named (turns[1].content[0].name: ...).
  const raw = options.script ?? { turns: options.turns ?? [] };
  return parseScript(
    JSON.stringify(raw, null, 2),
    options.script ? "createTestHost({ script })" : "createTestHost({ turns })",
  );
}

function definitionOf(exported: ExtensionExport, index: number): ExtensionDefinition {
  if (typeof exported !== "function") return exported;
  return { name: exported.name || `extension-${index + 1}`, setup: exported };
}

function loadFailures(records: readonly ExtensionRecord[]): string | undefined {
  const failed = records.filter((r) => r.status !== "loaded");
  if (failed.length === 0) return undefined;
  const lines = failed.map((r) => `  ${r.name} (${r.source}) ${r.status}: ${r.errors.join("; ")}`);
  return `createTestHost: ${failed.length === 1 ? "an extension" : "extensions"} did not load (pass allowLoadErrors: true to test that):\n${lines.join("\n")}`;
}

/**
 * Starts a real host (`createHost`) over a fresh temp project and `GATEHOUSE_HOME`, with the
 * scripted model, the given extensions, tools, files, settings and configuration.
 * Contract: the host never reads the machine's managed settings or `~/.gatehouse` (unless `env` or
 * `home` say so); an extension that fails to load rejects, naming it, unless `allowLoadErrors`; a
 * required guard that fails rejects as `createHost` does. Temp directories go on `close()`.
 */
export async function createTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const created: string[] = [];
  const cwd = options.cwd ?? tempDir("gatehouse-test-");
  if (!options.cwd) created.push(cwd);
  const home = options.home ?? options.env?.GATEHOUSE_HOME ?? tempDir("gatehouse-test-home-");
  if (!options.home && !options.env?.GATEHOUSE_HOME) created.push(home);
  const cleanup = () => {
    for (const dir of created) rmSync(dir, { recursive: true, force: true });
  };
  try {
    writeFiles(cwd, options.files ?? {});
    if (options.settings)
      writeFiles(cwd, { ".gatehouse/settings.json": `${JSON.stringify(options.settings, null, 2)}\n` });
    const script = await scriptOf(options);
    const events: GatehouseEvent[] = [];
    const recorder = new CallRecorder();
    const env: NodeJS.ProcessEnv = { ...process.env, GATEHOUSE_HOME: home };
    // A managed settings file on the machine running the tests must not change what they test.
    delete env.GATEHOUSE_MANAGED_SETTINGS;
    for (const [key, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
    let t: TestHost | undefined;
    const host = await createHost({
      cwd,
      env,
      model: createScriptedModel(script),
      logger: options.logger ?? pino({ level: options.logLevel ?? "silent" }),
      extensions: (options.extensions ?? []).map(definitionOf),
      tools: [...(options.tools ?? [])],
      ...(options.config ? { config: options.config } : {}),
      ...(options.settings ? { discover: true, trust: true } : {}),
      ...(options.toolExecution ? { toolExecution: options.toolExecution } : {}),
      ...(options.hookTimeoutMs !== undefined ? { hookTimeoutMs: options.hookTimeoutMs } : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      onEvent: (event) => {
        events.push(event);
        recorder.observe(event);
        if (t) options.onEvent?.(event, t);
      },
    });
    const problem = options.allowLoadErrors ? undefined : loadFailures(host.extensions());
    if (problem) {
      await host.close();
      throw new Error(problem);
    }
    const before = snapshot(cwd);
    t = {
      host,
      cwd,
      home,
      events,
      get transcript() {
        return host.messages;
      },
      audit: recorder.entries,
      run: (prompt) => host.run(prompt ?? script.prompt ?? "go"),
      eventsOf: <K extends GatehouseEventType>(type: K) =>
        events.filter((e): e is GatehouseEventOf<K> => e.type === type),
      call: (id) => entryOf(recorder.entries, id),
      expectBlocked: (id, expected) => expectBlocked(recorder.entries, id, expected),
      expectExecuted: (id) => expectExecuted(recorder.entries, id),
      written() {
        const now = snapshot(cwd);
        const changed: Record<string, string> = {};
        for (const [path, digest] of now) {
          if (before.get(path) !== digest) changed[path] = readFileSync(join(cwd, path), "utf8");
        }
        return changed;
      },
      file(path) {
        const full = inside(cwd, path);
        return existsSync(full) ? readFileSync(full, "utf8") : undefined;
      },
      write: (files) => writeFiles(cwd, files),
      extensions: () => host.extensions(),
      async close() {
        try {
          await host.close();
        } finally {
          cleanup();
        }
      },
    };
    return t;
  } catch (error) {
    cleanup();
    throw error;
  }
}

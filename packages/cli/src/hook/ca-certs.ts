// Node 20 parses every certificate that NODE_EXTRA_CA_CERTS names at each process start, before any
// of our code runs: on a machine behind a corporate proxy (where the variable is set, as Claude
// Code's own documentation recommends) that is most of a hook process's time. A decision from a
// plan makes no TLS connection, so the installed hook command starts Gatehouse without the
// variable and carries its value in CA_CERTS_CARRIER; only the full evaluation, which loads the
// project's extensions (code that may well call a server through that proxy), needs it back, and
// gets it by running in a child process with the variable restored.
import type * as ChildProcess from "node:child_process";
import { createRequire } from "node:module";
import type { HookAnswer } from "./hook-answer.ts";

/** The variable the installed hook command keeps NODE_EXTRA_CA_CERTS's value in. */
export const CA_CERTS_CARRIER = "GATEHOUSE_EXTRA_CA_CERTS";

/**
 * The shell prefix of the installed hook command: the value moves to CA_CERTS_CARRIER and Node
 * starts without it (an empty value is no file: Node loads nothing). POSIX shells only.
 */
export const CA_CERTS_PREFIX = `${CA_CERTS_CARRIER}="\${NODE_EXTRA_CA_CERTS-}" NODE_EXTRA_CA_CERTS=`;

/** The certificates file the installed command set aside, when this process started without it. */
export function setAsideCaCerts(env: NodeJS.ProcessEnv): string | undefined {
  const carried = env[CA_CERTS_CARRIER];
  return carried && !env.NODE_EXTRA_CA_CERTS ? carried : undefined;
}

/** How long the relayed evaluation may take before it is killed and the call refused. */
const RELAY_TIMEOUT_MS = 25_000;

/**
 * Answers the same hook call in a child process started with NODE_EXTRA_CA_CERTS restored (and the
 * carrier removed, so the child evaluates itself): `args` after `hook`, the payload as read.
 * Contract: the child's answer is returned as it printed it; a child that cannot start or is
 * killed throws, and the caller refuses the call.
 */
export function relayWithCaCerts(options: {
  args: readonly string[];
  payload: string;
  env: NodeJS.ProcessEnv;
  certs: string;
}): HookAnswer {
  // Required here, not imported: this file is bundled into dist/hook.cjs, whose decisions never
  // start a process (a dynamic import() cannot run there: it is evaluated through node:vm).
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof ChildProcess;
  const env: NodeJS.ProcessEnv = { ...options.env, NODE_EXTRA_CA_CERTS: options.certs };
  delete env[CA_CERTS_CARRIER];
  const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1] as string, "hook", ...options.args], {
    input: options.payload,
    env,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    // The child refuses by itself after 20 s; one stuck in code that never yields is killed before
    // the agents' own hook timeout (30 s as installed), which would let the call run.
    timeout: RELAY_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  if (child.error) throw new Error(`the evaluation with NODE_EXTRA_CA_CERTS could not start (${child.error.message})`);
  if (child.status === null) throw new Error(`the evaluation with NODE_EXTRA_CA_CERTS ended by ${child.signal}`);
  return { stdout: child.stdout, stderr: child.stderr, exitCode: child.status };
}

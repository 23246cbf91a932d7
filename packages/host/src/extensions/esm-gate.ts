import { register } from "node:module";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { ESM_GATE_HOOKS } from "./esm-gate-hooks.ts";

/** One registration as the ESM hooks see it: plain data, cloned to their thread. */
export interface EsmGateRegistration {
  root: string;
  linked: string[];
  retrust: string;
  all: boolean;
  /** Real path → sha256 of the content trust approved. */
  approval: Record<string, string>;
}

/** Everything the hooks decide with. */
export interface EsmGateState {
  regs: EsmGateRegistration[];
  hostRoots: string[];
}

let channel: { port: MessagePort; generation: Int32Array } | undefined;
let published = 0;
let snapshot: (() => EsmGateState) | undefined;

/**
 * Puts Node's ES module loader behind the trust gate (see esm-gate-hooks.ts), once per process.
 * Why lazily: Node starts the hooks' thread synchronously (tens of milliseconds), and only code
 * that is not Gatehouse's own (a project's, a user's) could import project files natively; a run
 * that loads only the first-party plugins never pays for it.
 * Contract: `state` is read now and again on every `publishEsmGate()`; after this returns, every
 * ES module load of a gated file is checked against the latest published state.
 */
export function installEsmGate(state: () => EsmGateState): void {
  snapshot = state;
  if (channel) return;
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  const generation = new Int32Array(new SharedArrayBuffer(4));
  channel = { port: port1, generation };
  publishEsmGate();
  register(`data:text/javascript,${encodeURIComponent(ESM_GATE_HOOKS)}`, {
    data: { port: port2, generation: generation.buffer },
    transferList: [port2],
  });
}

/**
 * Sends the current registrations to the hooks: posted first, then the generation is bumped, so
 * the hooks take the new state before their next decision. No-op before `installEsmGate`.
 */
export function publishEsmGate(): void {
  if (!channel || !snapshot) return;
  published += 1;
  channel.port.postMessage({ generation: published, state: snapshot() });
  Atomics.store(channel.generation, 0, published);
}

/** True once the hooks are registered in this process. */
export function esmGateInstalled(): boolean {
  return channel !== undefined;
}

import { errorMessage } from "../common/errors.ts";
import type { ExtensionApiHandle } from "./api.ts";

/** What `disposeExtension` needs besides the handle. */
export interface DisposeOptions {
  /** The extension's name, for errors. */
  name: string;
  /** Time limit for each disposer, in ms (the handler time limit). */
  timeoutMs: number;
  /** Receives each disposer's failure (a throw, a rejection, a timeout). */
  onError: (message: string) => void;
}

function withinLimit(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not finish within ${ms} ms`)), ms);
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Unloads one version of an extension: revokes its API (nothing more can be registered), then
 * awaits its `onDispose` functions, latest first, one after the other.
 * Contract: never throws and never waits longer than `timeoutMs` per disposer; each failure goes
 * to `onError`, and the disposers after it still run, so a broken disposer never blocks a reload.
 */
export async function disposeExtension(handle: ExtensionApiHandle, options: DisposeOptions): Promise<void> {
  handle.revoke();
  for (const dispose of handle.disposers()) {
    try {
      await withinLimit(Promise.resolve().then(dispose), options.timeoutMs);
    } catch (error) {
      options.onError(`onDispose of "${options.name}" failed: ${errorMessage(error)}`);
    }
  }
}

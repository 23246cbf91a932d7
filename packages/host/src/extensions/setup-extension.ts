import type { ExtensionAPI, ExtensionExport } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import { createExtensionApi, type ExtensionApiContext } from "./api.ts";
import type { ExtensionRecord } from "./types.ts";

/** A loaded extension: its record, and how to unload it. */
export interface SetupResult {
  record: ExtensionRecord;
  unload(): void;
}

function withTimeout(work: unknown, ms: number, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`setup of "${name}" did not finish within ${ms} ms`)), ms);
    Promise.resolve(work).then(
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

/** The setup function of a module's default export, or why there is none. */
export function setupFunctionOf(exported: ExtensionExport | unknown): ((api: ExtensionAPI) => unknown) | string {
  if (typeof exported === "function") return exported as (api: ExtensionAPI) => unknown;
  if (exported && typeof exported === "object" && typeof (exported as { setup?: unknown }).setup === "function") {
    return (exported as { setup: (api: ExtensionAPI) => unknown }).setup;
  }
  return "the default export must be defineExtension({ name, setup }) or a function (api) => void";
}

/**
 * Runs one extension's setup against a fresh API, awaiting async setup with a time limit.
 * Contract: never throws. On failure everything the extension registered is removed again,
 * its API is revoked, and the record says `failed` with the cause; other extensions are untouched.
 */
export async function setupExtension(
  exported: unknown,
  ctx: Omit<ExtensionApiContext, "onConflict">,
  timeoutMs: number,
): Promise<SetupResult> {
  const record: ExtensionRecord = {
    name: ctx.name,
    source: ctx.source,
    status: "loaded",
    tools: [],
    handlers: [],
    errors: [],
  };
  const handle = createExtensionApi({
    ...ctx,
    onConflict: (c) =>
      record.errors.push(
        `tool "${c.name}" is already registered by ${c.winner.owner}${c.winner.file ? ` (${c.winner.file})` : ""}; ` +
          `this registration from ${ctx.source} was ignored`,
      ),
  });
  const unload = () => {
    handle.revoke();
    ctx.tools.removeOwner(ctx.name);
    ctx.handlers.removeOwner(ctx.name);
  };
  const setup = setupFunctionOf(exported);
  try {
    if (typeof setup === "string") throw new Error(setup);
    await withTimeout(setup(handle.api), timeoutMs, ctx.name);
  } catch (error) {
    unload();
    record.status = "failed";
    record.errors.unshift(errorMessage(error));
    return { record, unload };
  }
  record.tools = ctx.tools
    .describe()
    .filter((t) => t.source.owner === ctx.name)
    .map((t) => t.name);
  record.handlers = ctx.handlers.describe(ctx.name);
  return { record, unload };
}

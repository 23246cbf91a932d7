import { basename, dirname, isAbsolute, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI, ExtensionExport } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import { createExtensionApi, type ExtensionApiContext, type ExtensionApiHandle } from "./api.ts";
import { HOST_API_VERSION } from "./api-version.ts";
import type { ExtensionRecord } from "./types.ts";
import { satisfiesRange } from "./version-range.ts";

/**
 * A set-up extension, not yet visible: commit it to publish, or drop it. A failed setup keeps its
 * handle so that what it registered with `onDispose` before failing can still be released.
 */
export type SetupResult =
  | { ok: true; record: ExtensionRecord; handle: ExtensionApiHandle }
  | { ok: false; record: ExtensionRecord; handle?: ExtensionApiHandle };

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

/** This module's own file: stack frames from here down are the host's, not the extension's. */
const HOST_FRAME = fileURLToPath(import.meta.url);

/** The host's own code (its `src` or `dist` folder): a usage error thrown there points at its caller. */
const HOST_CODE = ((): string => {
  for (let dir = dirname(HOST_FRAME); dirname(dir) !== dir; dir = dirname(dir)) {
    if (basename(dir) === "src" || basename(dir) === "dist") return `${dir}${sep}`;
  }
  return `${dirname(HOST_FRAME)}${sep}`;
})();

/** `at fn (file:line:col)` or `at file:line:col` of a V8 stack frame. */
const FRAME = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

/**
 * Where an extension's setup threw: the first frame of the stack above the host's own frames that
 * is a file (not Node's internals), preferring the extension's code over packages it uses.
 */
export function throwSite(error: unknown): string | undefined {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  const sites: { file: string; at: string }[] = [];
  for (const line of stack.split("\n").slice(1)) {
    const match = FRAME.exec(line);
    if (!match) continue;
    let file = match[1] as string;
    if (file.startsWith("file://")) file = fileURLToPath(file);
    if (file === HOST_FRAME) break;
    if (!isAbsolute(file)) continue; // node:internal/…, native, eval
    if (file.startsWith(HOST_CODE)) continue; // the API call that refused: its caller is the site
    // file:line only: a transpiled module's columns need not match the source the author wrote.
    sites.push({ file, at: `${file}:${match[2]}` });
  }
  return (sites.find((s) => !s.file.includes("/node_modules/")) ?? sites[0])?.at;
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
 * Why this host cannot run an extension that declares `hostVersion`, if it cannot: the range is
 * not a string, not a semver range, or does not include the host's extension API version.
 */
export function hostVersionProblem(exported: unknown): string | undefined {
  if (!exported || typeof exported !== "object" || !Object.hasOwn(exported, "hostVersion")) return undefined;
  const range = (exported as { hostVersion?: unknown }).hostVersion;
  if (range === undefined) return undefined;
  const example = `e.g. "^${HOST_API_VERSION.split(".")[0]}"`;
  if (typeof range !== "string") {
    return `hostVersion must be a semver range string (${example}), not ${JSON.stringify(range) ?? typeof range}`;
  }
  const fits = satisfiesRange(HOST_API_VERSION, range);
  if (fits === undefined) return `hostVersion ${JSON.stringify(range)} is not a semver range (${example})`;
  if (fits) return undefined;
  return (
    `it needs extension API ${range} (hostVersion), but this Gatehouse implements ${HOST_API_VERSION}: ` +
    "use a version of the extension written for this API, or a Gatehouse that implements the one it needs"
  );
}

/** Members of the reference runtime's extension API that Gatehouse's does not have (SPEC §5 lists ours). */
const OTHER_RUNTIME_MEMBERS = new Set([
  "registerCommand",
  "registerFlag",
  "getFlag",
  "registerShortcut",
  "registerMessageRenderer",
  "sendMessage",
  "sendUserMessage",
  "appendEntry",
  "setActiveTools",
  "getActiveTools",
  "getAllTools",
  "setModel",
  "setThinkingLevel",
  "exec",
]);

/**
 * For a setup that called something the API does not have (`api.registerCommand(...)`, written for
 * another runtime's API): what this API offers, so the author need not guess. Empty otherwise.
 */
export function missingMemberHint(error: unknown, api: object): string {
  if (!(error instanceof TypeError)) return "";
  const member = /^\w+\.(\w+) is not a function$/.exec(error.message)?.[1];
  if (member === undefined || member in api || !OTHER_RUNTIME_MEMBERS.has(member)) return "";
  const offered = Object.keys(api).filter((key) => typeof (api as Record<string, unknown>)[key] === "function");
  return `: Gatehouse's extension API has no ${member}; it offers ${offered.join(", ")}`;
}

/** The name an extension declares, if any. */
export function declaredName(exported: unknown): string | undefined {
  if (exported && typeof exported === "object") {
    const name = (exported as { name?: unknown }).name;
    if (typeof name === "string" && name.trim()) return name.trim();
  }
  return undefined;
}

/**
 * Runs one extension's setup against a fresh API, awaiting async setup with a time limit.
 * Contract: never throws and publishes nothing: what setup registered is staged in the handle
 * until the caller commits it, so a failed (re)load leaves the registries exactly as they were.
 */
export async function setupExtension(
  exported: unknown,
  ctx: Omit<ExtensionApiContext, "onConflict" | "onConfig">,
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
    onConfig: (explanation) => {
      record.config = explanation;
    },
    onConflict: (c) => {
      const where = c.winner.file ? ` (${c.winner.file})` : "";
      record.errors.push(
        `tool "${c.name}" is already registered by ${c.winner.owner}${where}, earlier in load order; ` +
          `the registration from ${ctx.source} is not used`,
      );
    },
  });
  const setup = setupFunctionOf(exported);
  const refused = hostVersionProblem(exported);
  try {
    if (typeof setup === "string") throw new Error(setup);
    // Checked before setup runs: code written for another API never starts.
    if (refused) throw new Error(refused);
    await withTimeout(setup(handle.api), timeoutMs, ctx.name);
    // A guard whose tools list holds only a typo would load and never run: fail it by name.
    const stray = handle.strayToolNames();
    if (stray) throw new Error(stray);
  } catch (error) {
    handle.revoke();
    record.status = "failed";
    // A throw names the file and line it came from, so the author can go straight there.
    const site = throwSite(error);
    const message = `${errorMessage(error)}${missingMemberHint(error, handle.api)}`;
    record.errors.unshift(site ? `${message} (at ${site})` : message);
    return { ok: false, record, handle };
  }
  return { ok: true, record, handle };
}

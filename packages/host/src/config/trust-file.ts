import { randomBytes } from "node:crypto";
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { strictObject } from "../common/describe-zod-issues.ts";
import { GatehouseError } from "../common/errors.ts";
import { lazy } from "../common/lazy.ts";
import { osReason } from "./os-reason.ts";
import { ensurePrivateDir } from "./private-dir.ts";
import { readJsonFile } from "./read-json-file.ts";

/** The schemas of `<home>/trust.json`, built at the first read of a trust store (see `lazy`). */
function buildSchemas() {
  const digest = z.string().regex(/^[0-9a-f]{64}$/, "expected a sha256 hex digest");
  const extensionRecord = strictObject({
    grantedAt: z.string().min(1),
    files: z.record(z.string(), digest),
  });
  const projectRecord = strictObject({
    grantedAt: z.string().min(1),
    extensions: z.record(z.string(), extensionRecord),
  });
  /** A record written by Gatehouse before trust covered imports: read, never honoured. */
  const legacyRecord = strictObject({
    grantedAt: z.string().min(1),
    files: z.record(z.string(), digest),
  });
  /**
   * The schema of `<home>/trust.json`.
   * Contract: `version` 2 is this format; a version 1 store (trust of entry files only, from an older
   * Gatehouse) is read so its projects can be told to trust again, and is replaced by version 2 on the
   * next write. Any other version is an error rather than something this version would rewrite.
   */
  const trustFile = z.discriminatedUnion("version", [
    strictObject({ version: z.literal(1), projects: z.record(z.string(), legacyRecord) }),
    strictObject({ version: z.literal(2), projects: z.record(z.string(), projectRecord) }),
  ]);
  return { extensionRecord, projectRecord, trustFile };
}

const schemas = lazy(buildSchemas);
type Schemas = ReturnType<typeof buildSchemas>;

/** The trust store as this version writes it: one record per trusted project, keyed by its real path. */
export interface TrustFile {
  version: 2;
  projects: Record<string, TrustRecord>;
  /** Projects trusted by an older Gatehouse whose records no longer count (never written). */
  legacy?: Set<string>;
}

/** The trust granted to one project: per project extension (by entry), its files' sha256. */
export type TrustRecord = z.output<Schemas["projectRecord"]>;

/** The trust granted to one extension: the sha256 of each project file it loads, by relative path. */
export type ExtensionTrustRecord = z.output<Schemas["extensionRecord"]>;

/** The path of the trust store under a Gatehouse home. */
export function trustFilePath(home: string): string {
  return join(home, "trust.json");
}

/**
 * Reads the trust store; a home without one has an empty store.
 * Contract: an existing home must be private (see `ensurePrivateDir`), or this throws
 * `GH_STATE_DIR`; a missing one is not created. An unreadable, malformed or invalid `trust.json` throws GatehouseError
 * `GH_SETTINGS_INVALID` naming the file (and line, column and field when it can). It is never reset
 * silently: that would throw away every project's trust.
 */
export function readTrustFile(home: string): TrustFile {
  if (!existsSync(home)) return { version: 2, projects: {} };
  ensurePrivateDir(home);
  const loaded = readJsonFile({
    file: trustFilePath(home),
    schema: schemas().trustFile,
    what: "trust store",
    optional: true,
  });
  const value = loaded?.value;
  if (value === undefined) return { version: 2, projects: {} };
  if (value.version === 1) return { version: 2, projects: {}, legacy: new Set(Object.keys(value.projects)) };
  return { version: 2, projects: value.projects };
}

/**
 * Replaces the trust store atomically.
 * Contract: the home is private (created mode 0700 if missing); the content is written to a
 * temporary file in the same directory (mode 0600) and renamed over `trust.json`, so a reader sees
 * the old store or the new one, never a partial one. Failures throw `GH_SETTINGS_INVALID` naming
 * the file and OS reason.
 */
export function writeTrustFile(home: string, store: TrustFile): void {
  ensurePrivateDir(home);
  const file = trustFilePath(home);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const { version, projects } = store;
    writeFileSync(temporary, `${JSON.stringify({ version, projects }, null, 2)}\n`, { mode: 0o600, flush: true });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new GatehouseError("GH_SETTINGS_INVALID", `Cannot write trust store ${file}: ${osReason(error)}`, {
      cause: error,
    });
  }
}

import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { strictObject } from "../common/describe-zod-issues.ts";
import { GatehouseError } from "../common/errors.ts";
import { osReason, readJsonFile } from "./read-json-file.ts";

const trustRecordSchema = strictObject({
  grantedAt: z.string().min(1),
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/, "expected a sha256 hex digest")),
});

/**
 * The schema of `<home>/trust.json`.
 * Contract: `version` is exactly 1, so a file written by a newer Gatehouse is an error rather than
 * something this version would rewrite in its own format.
 */
export const trustFileSchema = strictObject({
  version: z.literal(1),
  projects: z.record(z.string(), trustRecordSchema),
});

/** The whole trust store: one record per trusted project, keyed by the project's real path. */
export type TrustFile = z.output<typeof trustFileSchema>;

/** The trust granted to one project: when, and the sha256 of each file, by path relative to the project. */
export type TrustRecord = TrustFile["projects"][string];

/** The path of the trust store under a Gatehouse home. */
export function trustFilePath(home: string): string {
  return join(home, "trust.json");
}

/**
 * Reads the trust store; a home without one has an empty store.
 * Contract: an unreadable, malformed or invalid `trust.json` throws GatehouseError
 * `GH_SETTINGS_INVALID` naming the file (and line, column and field when it can). It is never
 * reset silently: that would throw away every project's trust.
 */
export function readTrustFile(home: string): TrustFile {
  const loaded = readJsonFile({
    file: trustFilePath(home),
    schema: trustFileSchema,
    what: "trust store",
    optional: true,
  });
  return loaded?.value ?? { version: 1, projects: {} };
}

/**
 * Replaces the trust store atomically.
 * Contract: the home is created if missing (mode 0700); the content is written to a temporary file in
 * the same directory (mode 0600) and renamed over `trust.json`, so a reader sees the old store or the
 * new one, never a partial one. Failures throw `GH_SETTINGS_INVALID` naming the file and OS reason.
 */
export function writeTrustFile(home: string, store: TrustFile): void {
  const file = trustFilePath(home);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600, flush: true });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new GatehouseError("GH_SETTINGS_INVALID", `Cannot write trust store ${file}: ${osReason(error)}`, {
      cause: error,
    });
  }
}

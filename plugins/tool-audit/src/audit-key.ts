import { createHmac, randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { linkNewFile } from "./link-new-file.ts";
import { type MacKey, macKey } from "./record.ts";

/** The audit key: the secret every record's and seal's MAC is computed with. */
export interface AuditKey {
  /** Where it was read from. */
  file: string;
  /** A short public id of the key (hex), written into each session's first record. */
  id: string;
  /** The key records are MAC-ed with (derived, so a record MAC can never pass for a seal MAC). */
  records: MacKey;
  /** The key seals are MAC-ed with. */
  seals: MacKey;
}

/** Why the key could not be used. */
export class AuditKeyError extends Error {
  /** `GH_AUDIT_KEY`. */
  readonly code = "GH_AUDIT_KEY";
}

const MIN_KEY_BYTES = 32;
const MAX_KEY_BYTES = 4096;
const derive = (secret: Buffer, purpose: string) => createHmac("sha256", secret).update(purpose).digest();

/** Keys derived in this process, by file and secret: every session of a host (and every host) reads the key file, derives once. */
const derived = new Map<string, AuditKey>();
/** A process rarely uses more than one key; a few are kept, the oldest dropped first. */
const MAX_DERIVED_KEYS = 8;

/**
 * The key material as MACs use it: derived per purpose, with its id.
 * Contract: a pure function of `secret` and `file`; the same inputs in one process give the same
 * (frozen) key, derived once.
 */
export function keyFromSecret(secret: Buffer, file: string): AuditKey {
  if (secret.length < MIN_KEY_BYTES) {
    throw new AuditKeyError(`audit key ${file} is too short (${secret.length} bytes; at least ${MIN_KEY_BYTES})`);
  }
  const memo = `${file}\0${secret.toString("hex")}`;
  const known = derived.get(memo);
  if (known) return known;
  const key: AuditKey = Object.freeze({
    file,
    id: derive(secret, "gatehouse-audit/key-id").toString("hex").slice(0, 16),
    records: macKey(derive(secret, "gatehouse-audit/records/v2")),
    seals: macKey(derive(secret, "gatehouse-audit/seals/v1")),
  });
  if (derived.size >= MAX_DERIVED_KEYS) derived.delete(derived.keys().next().value as string);
  derived.set(memo, key);
  return key;
}

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? error);
}

/**
 * Reads a key file: its bytes, trimmed of surrounding white space, at least 32 of them.
 * Contract: the key must be private, wherever it is configured: a regular file (not a symbolic
 * link: opened without following one, and without blocking, so a FIFO fails instead of hanging)
 * owned by the current user, that no other user can read or write (a key others can read lets
 * them forge a history that verifies). Throws `AuditKeyError` naming the file and the cause;
 * `undefined` only when it does not exist and `missingOk` is set.
 */
export function readAuditKey(file: string, options: { missingOk?: boolean } = {}): AuditKey | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && options.missingOk) return undefined;
    if (code === "ELOOP") throw new AuditKeyError(`audit key ${file} is a symbolic link; name the key file itself`);
    throw new AuditKeyError(`audit key ${file} cannot be read (${reason(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new AuditKeyError(`audit key ${file} is not a regular file`);
    const mode = (stat.mode & 0o777).toString(8);
    if ((stat.mode & 0o022) !== 0) {
      throw new AuditKeyError(`audit key ${file} is writable by other users (mode ${mode}); run chmod 600 on it`);
    }
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
      throw new AuditKeyError(`audit key ${file} is owned by uid ${stat.uid}, not by you (uid ${uid})`);
    }
    if (process.platform !== "win32" && (stat.mode & 0o077) !== 0) {
      throw new AuditKeyError(
        `audit key ${file} is readable by other users (mode ${mode}): they could forge a history that verifies; run chmod 600 on it`,
      );
    }
    if (stat.size > MAX_KEY_BYTES) throw new AuditKeyError(`audit key ${file} is larger than ${MAX_KEY_BYTES} bytes`);
    const buffer = Buffer.alloc(MAX_KEY_BYTES + 1);
    let size = 0;
    for (let n = 1; n > 0 && size <= MAX_KEY_BYTES; size += n)
      n = readSync(fd, buffer, size, buffer.length - size, null);
    return keyFromSecret(Buffer.from(buffer.subarray(0, size).toString("latin1").trim(), "latin1"), file);
  } catch (error) {
    if (error instanceof AuditKeyError) throw error;
    throw new AuditKeyError(`audit key ${file} cannot be read (${reason(error)})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The per-user key at `file`, created on first use: 32 random bytes as hex, mode 0600. It is
 * written to a temporary file and linked into place, so a reader never sees a half-written key
 * and two processes starting at once end up with the same key.
 * Contract: the folder must already be private (see `api.privateDir`); throws `AuditKeyError`.
 */
export function loadOrCreateAuditKey(file: string): AuditKey {
  const existing = readAuditKey(file, { missingOk: true });
  if (existing) return existing;
  try {
    // false: another process linked its key first; use theirs.
    linkNewFile(file, `${randomBytes(32).toString("hex")}\n`, { sync: true });
  } catch (error) {
    throw new AuditKeyError(`audit key ${file} cannot be created (${reason(error)})`);
  }
  const created = readAuditKey(file);
  if (!created) throw new AuditKeyError(`audit key ${file} vanished after it was created`);
  return created;
}

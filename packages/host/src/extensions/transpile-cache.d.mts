import type { TransformInput, TransformOutput } from "./sucrase-transform.d.mts";

/**
 * The per-user key that MACs cache entries, read from `file` or created there (mode 0600, never
 * through a symbolic link).
 * Contract: an existing key file must be a regular file of 32 bytes, owned by the current user and
 * unreadable by others; otherwise this throws an Error with `code: "GH_STATE_DIR"` naming the file.
 */
export function readOrCreateKey(file: string): Buffer;

/**
 * Wraps a transform with a content-addressed, MAC-ed cache in `dir` (a private directory).
 * Contract: an entry is named by the sha256 of `version`, the file name, the mode and the source, and
 * holds the HMAC-SHA256 (with `key`) of its name and code before the code; an entry whose MAC does
 * not verify (edited, truncated, planted) is never used: the source is transformed again and the
 * entry rewritten atomically. Write failures are ignored (the cache is only an optimisation).
 */
export function createCachedTransform(options: {
  transform: (input: TransformInput) => TransformOutput;
  dir: string;
  key: Buffer;
  version: string;
}): (input: TransformInput) => TransformOutput;

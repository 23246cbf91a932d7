import { hash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

/** A CommonJS file run with V8's code cache. */
export interface CachedModule {
  /** What the file exported. */
  exports: unknown;
  /** Whether V8 took the cache (false: none yet, stale, or from another Node version). */
  cacheUsed: boolean;
  /**
   * Stores the code V8 compiled so far (call it after the work, so the functions that ran are in
   * it) when the cache was not used. Never throws: a read-only installation simply has no cache.
   */
  saveCache(): void;
}

const DIGEST_BYTES = 32;

/**
 * Runs the CommonJS file `file` the way `require` would, with V8's code cache kept beside it in
 * `<file>.v8-cache`: a process that starts for one short job (an agent hook) then skips most of
 * the compiling.
 * Contract: the cache is used only when it was made from exactly this file's text (its SHA-256 is
 * stored with it; V8 itself checks only the length) by this V8; otherwise the file is compiled as
 * usual. The cache lives in the file's own directory, so whoever can change it can change the
 * code itself: it adds no one who can change what runs.
 */
export function requireCached(file: string): CachedModule {
  const source = readFileSync(file, "utf8");
  const digest = hash("sha256", source, "buffer");
  const cacheFile = `${file}.v8-cache`;
  let cachedData: Buffer | undefined;
  try {
    const stored = readFileSync(cacheFile);
    if (stored.subarray(0, DIGEST_BYTES).equals(digest)) cachedData = stored.subarray(DIGEST_BYTES);
  } catch {
    // no cache yet
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapper, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    cacheUsed,
    saveCache() {
      if (cacheUsed) return;
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temp, Buffer.concat([digest, script.createCachedData()]), { flag: "wx" });
        renameSync(temp, cacheFile);
      } catch {
        rmSync(temp, { force: true });
      }
    },
  };
}

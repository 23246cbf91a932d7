import {
  chmodSync,
  closeSync,
  constants,
  lstatSync as nodeLstat,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";

/**
 * Paths as the walks of the index, the review and the quarantine use them: any byte string the
 * kernel accepts, at any length.
 *
 * A file name is bytes, not text. A name that is not valid UTF-8 is kept losslessly in a string:
 * each byte that is not part of a valid sequence becomes the lone surrogate U+DC00 + byte (what
 * Python calls "surrogateescape"); valid UTF-8 never decodes to a lone surrogate, so the mapping is
 * one to one, and deny rules match such a name like any other (`w\uDCFF/.envrc` is an `.envrc`).
 * Such a string goes to `fs` as the Buffer of its bytes (`encodePath`). A path longer than the
 * kernel takes in one call (PATH_MAX) is reached through descriptors of its folders
 * (`/proc/self/fd/N/rest`), a piece shorter than the limit at a time (`atShortPath`).
 */

/** Bytes a path given to one call may have: PATH_MAX (4096) with room for `/proc/self/fd/N/`. */
const LIMIT = 3800;

/** O_PATH (Linux): a descriptor that only names a folder, so one without read permission can be walked through. */
const O_PATH = (constants as { O_PATH?: number }).O_PATH ?? 0o10000000;

/** The length of a valid UTF-8 sequence at `i` (1 to 4), or 0 when the byte there starts none. */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] as number;
  if (b0 < 0x80) return 1;
  const cont = (k: number) => {
    const b = bytes[i + k];
    return b !== undefined && b >= 0x80 && b <= 0xbf;
  };
  const b1 = bytes[i + 1] ?? 0;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    // No overlong forms (E0 80..9F) and no surrogates (ED A0..BF).
    if (b0 === 0xe0 && b1 < 0xa0) return 0;
    if (b0 === 0xed && b1 > 0x9f) return 0;
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (b0 === 0xf0 && b1 < 0x90) return 0;
    if (b0 === 0xf4 && b1 > 0x8f) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * A file name (or path) read as bytes, as a string: valid UTF-8 decoded, every other byte as the
 * lone surrogate U+DC00 + byte.
 * Contract: `encodePath(decodeName(b))` equals `b` for every byte string `b`.
 */
export function decodeName(bytes: Uint8Array): string {
  let out = "";
  let start = 0;
  let i = 0;
  const decoder = new TextDecoder("utf-8");
  while (i < bytes.length) {
    const n = sequenceAt(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += decoder.decode(bytes.subarray(start, i));
    out += String.fromCharCode(0xdc00 + (bytes[i] as number));
    i += 1;
    start = i;
  }
  return out + decoder.decode(bytes.subarray(start));
}

/** Whether a string holds escaped bytes (lone surrogates), i.e. names something UTF-8 cannot spell. */
export function hasRawBytes(p: string): boolean {
  return LONE_SURROGATE.test(p);
}

/** A surrogate that is not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A path as `fs` takes it: the string itself when it is well-formed, otherwise the Buffer of its
 * bytes (an escaped byte U+DC80..U+DCFF back to the byte; any other lone surrogate as U+FFFD, as
 * Node itself would write it).
 */
export function encodePath(p: string): string | Buffer {
  if (!hasRawBytes(p)) return p;
  const parts: Buffer[] = [];
  let run = "";
  for (let i = 0; i < p.length; i += 1) {
    const code = p.charCodeAt(i);
    if (code >= 0xdc80 && code <= 0xdcff && !(i > 0 && isHigh(p.charCodeAt(i - 1)))) {
      parts.push(Buffer.from(run, "utf8"), Buffer.from([code - 0xdc00]));
      run = "";
    } else run += p[i];
  }
  parts.push(Buffer.from(run, "utf8"));
  return Buffer.concat(parts);
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function byteLength(p: string | Buffer): number {
  return typeof p === "string" ? Buffer.byteLength(p) : p.length;
}

/** `/proc/self/fd/N/` followed by `rest` (a string or the bytes of one). */
function underFd(fd: number, rest: string | Buffer): string | Buffer {
  const head = `/proc/self/fd/${fd}/`;
  return typeof rest === "string" ? head + rest : Buffer.concat([Buffer.from(head), rest]);
}

/** Splits the bytes of an absolute path at slashes into pieces of at most LIMIT bytes each. */
function pieces(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  while (bytes.length - start > LIMIT) {
    // The last slash that keeps this piece under the limit (a name is at most 255 bytes).
    const cut = bytes.lastIndexOf(0x2f, start + LIMIT);
    if (cut <= start)
      throw Object.assign(new Error(`a name in ${decodeName(bytes)} is too long`), { code: "ENAMETOOLONG" });
    out.push(bytes.subarray(start, cut));
    start = cut + 1;
  }
  out.push(bytes.subarray(start));
  return out;
}

/**
 * Runs `use` with a spelling of the absolute path `p` that `fs` accepts: `p` itself (or its
 * bytes), or for a path longer than one call takes, `/proc/self/fd/N/rest` through descriptors of
 * its folders, opened piece by piece (each piece relative to the last).
 * Contract: the descriptors are closed when `use` returns or throws; the last piece always names
 * at least the last component, so `use` acts on `p` itself, never on a descriptor's magic link.
 * Folders on the way are followed as the kernel would follow them in one call.
 */
export function atShortPath<T>(p: string, use: (at: string | Buffer) => T): T {
  const encoded = encodePath(p);
  if (byteLength(encoded) <= LIMIT) return use(encoded);
  const parts = pieces(typeof encoded === "string" ? Buffer.from(encoded) : encoded);
  const last = parts.pop() as Buffer;
  const opened: number[] = [];
  try {
    for (const part of parts) {
      const at = opened.length === 0 ? (part.length === 0 ? "/" : part) : underFd(opened.at(-1) as number, part);
      opened.push(openSync(at, O_PATH | constants.O_DIRECTORY));
    }
    return use(underFd(opened.at(-1) as number, last));
  } finally {
    for (const fd of opened) closeSync(fd);
  }
}

/** `lstat` of any path: undefined when nothing is there (or a parent is no folder). Throws on other errors. */
export function lstatAt(p: string): Stats | undefined {
  try {
    return atShortPath(p, (at) => nodeLstat(at));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** `stat` (following links) of any path, or undefined when it cannot be followed. */
export function statAt(p: string): Stats | undefined {
  try {
    return atShortPath(p, (at) => statSync(at));
  } catch {
    return undefined;
  }
}

/** A symbolic link's target text, or undefined when `p` is none (or is gone). */
export function readlinkAt(p: string): string | undefined {
  try {
    return decodeName(atShortPath(p, (at) => readlinkSync(at, { encoding: "buffer" })));
  } catch {
    return undefined;
  }
}

/** The real path of `p`, or undefined when it does not resolve. */
export function realpathAt(p: string): string | undefined {
  try {
    return decodeName(atShortPath(p, (at) => realpathSync.native(at, { encoding: "buffer" })));
  } catch {
    return undefined;
  }
}

/** One entry of a folder, its name decoded losslessly (`decodeName`). */
export interface RawEntry {
  name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFile(): boolean;
}

/** The entries of the folder `p`, names decoded losslessly. Throws like `readdirSync`. */
export function readdirAt(p: string): RawEntry[] {
  const entries = atShortPath(p, (at) => readdirSync(at, { withFileTypes: true, encoding: "buffer" }));
  return entries.map((entry) => ({
    name: decodeName(entry.name),
    isDirectory: () => entry.isDirectory(),
    isSymbolicLink: () => entry.isSymbolicLink(),
    isFile: () => entry.isFile(),
  }));
}

/**
 * `chmod` of the folder at any path, never through a symbolic link at its end: a folder a command
 * running next to the review swapped for a link (to `~/.ssh`, to `~/.bashrc`) would otherwise pass
 * the mode on to the link's target, outside the workspace. Throws like `chmodSync` (ELOOP or
 * ENOTDIR for a link, ENOTDIR for what is no folder).
 */
export function chmodAt(p: string, mode: number): void {
  atShortPath(p, (at) => {
    const fd = openSync(at, O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      chmodSync(`/proc/self/fd/${fd}`, mode);
    } finally {
      closeSync(fd);
    }
  });
}

// The transpile cache of Gatehouse (plain JavaScript, so the CLI bootstrap can use it before any
// TypeScript is loaded). Types and contract: transpile-cache.d.mts.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

const KEY_BYTES = 32;

function keyError(file, why) {
  const error = new Error(`transpile cache key ${file} ${why}; Gatehouse refuses to use it`);
  error.code = "GH_STATE_DIR";
  return error;
}

function readKey(file) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if (error?.code === "ENOENT") return undefined;
    throw keyError(file, error?.code === "ELOOP" ? "is a symbolic link" : `cannot be read (${error?.code ?? error})`);
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile()) throw keyError(file, "is not a regular file");
    if (uid !== undefined && stat.uid !== uid)
      throw keyError(file, `is owned by uid ${stat.uid}, not by you (uid ${uid})`);
    if ((stat.mode & 0o077) !== 0) throw keyError(file, "is readable by other users");
    const key = readFileSync(fd);
    if (key.length !== KEY_BYTES) throw keyError(file, "is not a key Gatehouse wrote");
    return key;
  } finally {
    closeSync(fd);
  }
}

export function readOrCreateKey(file) {
  const existing = readKey(file);
  if (existing) return existing;
  // Written whole under a temporary name, then linked into place: a concurrent reader sees no key
  // or the whole key, and of two concurrent creators the first link wins.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, randomBytes(KEY_BYTES), { mode: 0o600, flag: "wx" });
    linkSync(temporary, file);
  } catch (error) {
    if (error?.code !== "EEXIST") throw keyError(file, `cannot be created (${error?.code ?? error})`);
  } finally {
    rmSync(temporary, { force: true });
  }
  const key = readKey(file);
  if (!key) throw keyError(file, "vanished while it was created");
  return key;
}

function entryName(version, input) {
  const hash = createHash("sha256");
  for (const part of [
    version,
    input.filename ?? "",
    input.ts ? "ts" : "js",
    input.async ? "async" : "sync",
    input.source,
  ]) {
    hash.update(part);
    hash.update("\0");
  }
  return hash.digest("hex");
}

function mac(key, name, code) {
  return createHmac("sha256", key).update(name).update("\0").update(code).digest();
}

function readEntry(file, key, name) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const newline = text.indexOf("\n");
  if (newline !== 64) return undefined;
  const given = Buffer.from(text.slice(0, 64), "hex");
  const code = text.slice(65);
  const expected = mac(key, name, code);
  return given.length === expected.length && timingSafeEqual(given, expected) ? code : undefined;
}

function writeEntry(file, key, name, code) {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, `${mac(key, name, code).toString("hex")}\n${code}`, { mode: 0o600, flag: "wx" });
    renameSync(temporary, file);
  } catch {
    // The cache is an optimisation: a failed write costs the next run a transpile, nothing else.
    rmSync(temporary, { force: true });
  }
}

export function createCachedTransform({ transform, dir, key, version }) {
  return (input) => {
    const name = entryName(version, input);
    const file = join(dir, `${name}.js`);
    const cached = readEntry(file, key, name);
    if (cached !== undefined) return { code: cached };
    const result = transform(input);
    if (typeof result?.code === "string" && !result.error && !result.code.includes("__JITI_ERROR__")) {
      writeEntry(file, key, name, result.code);
    }
    return result;
  };
}

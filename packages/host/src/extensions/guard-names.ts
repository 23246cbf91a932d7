import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { editDistance } from "../common/edit-distance.ts";
import { readRegularFile } from "../common/read-regular-file.ts";

/** The first-party guards: required wherever they are enabled, however they are named. */
export const FIRST_PARTY_GUARDS: readonly string[] = ["@gatehouse/protected-paths", "@gatehouse/tool-audit"];

/** Every extension Gatehouse ships: the guards and the example tool. */
export const FIRST_PARTY_EXTENSIONS: readonly string[] = [...FIRST_PARTY_GUARDS, "@gatehouse/hello-tool"];

const SCOPE = "@gatehouse/";
/** How many edits away a scoped name may be from a first-party guard's name to be taken for it. */
const SCOPED_TYPO_DISTANCE = 3;
/** How many edits away an unscoped name may be from a guard's unscoped name (`protected-path`). */
const BARE_TYPO_DISTANCE = 2;

const SCHEME = /^[a-z][a-z0-9+.-]*:(?:\/\/)?/;
const CODE_FILE = /\.(?:[cm]?[jt]sx?|json)$/;
/** Path segments that name a package's entry rather than the package (`…/protected-paths/src/index.ts`). */
const ENTRY_SEGMENTS = new Set(["src", "dist", "lib", "build", "out", "package.json"]);

function withoutVersion(name: string): string {
  const at = name.indexOf("@", 1);
  return at > 0 ? name.slice(0, at) : name;
}

/**
 * The package names a spec could be meant as, lowercased: a package spec with its scheme
 * (`npm:`, `file:`, `link:`, …) and version taken off, the package after every `node_modules/`
 * in it, and the last segment that is not an entry file or folder (`src/index.ts`), scoped when
 * the segment before it is a scope. Why: "is this a guard" must not depend on spelling; a spec
 * that reads as a guard must load as one or stop the run.
 */
export function namesInSpec(spec: string): string[] {
  let text = spec.trim().toLowerCase().replaceAll("\\", "/");
  while (SCHEME.test(text)) text = text.replace(SCHEME, "");
  const parts = text.split("/").filter((p) => p !== "" && p !== "." && p !== ".." && p !== "~");
  const names = new Set<string>();
  const add = (at: number) => {
    const part = parts[at];
    if (part === undefined || part.startsWith("@")) return;
    const name = withoutVersion(part).replace(CODE_FILE, "");
    const scope = at > 0 ? parts[at - 1] : undefined;
    names.add(name);
    if (scope?.startsWith("@")) names.add(`${scope}/${name}`);
  };
  parts.forEach((part, i) => {
    if (part === "node_modules") add(parts[i + 1]?.startsWith("@") ? i + 2 : i + 1);
  });
  let end = parts.length;
  while (end > 1) {
    const last = parts[end - 1] as string;
    if (!ENTRY_SEGMENTS.has(last) && !/^(?:index|main)\.[a-z]+$/.test(last)) break;
    end -= 1;
  }
  add(end - 1);
  return [...names];
}

/**
 * Why a spec means a first-party guard, or `undefined`: it names one (in any spelling
 * `namesInSpec` takes apart), looks like one misspelt, or is in Gatehouse's own scope without
 * being one of its extensions.
 */
export function guardMeantBy(spec: string): string | undefined {
  const names = namesInSpec(spec);
  for (const name of names) {
    const exact = FIRST_PARTY_GUARDS.find((g) => name === g || name === g.slice(SCOPE.length));
    if (exact) {
      return spec === exact
        ? `${exact} is a first-party guard`
        : `it names the first-party guard ${exact} (misspelt, or spelt as a path, URL or version)`;
    }
  }
  for (const name of names) {
    const near = FIRST_PARTY_GUARDS.find((guard) =>
      name.includes("/")
        ? editDistance(name, guard, SCOPED_TYPO_DISTANCE) <= SCOPED_TYPO_DISTANCE
        : editDistance(name, guard.slice(SCOPE.length), BARE_TYPO_DISTANCE) <= BARE_TYPO_DISTANCE,
    );
    if (near) return `it looks like the first-party guard ${near} misspelt`;
  }
  const scoped = names.find((name) => name.startsWith(SCOPE) && !FIRST_PARTY_EXTENSIONS.includes(name));
  if (scoped) return `${spec} is in Gatehouse's own package scope but is none of its extensions`;
  return undefined;
}

/** The `name` of the package.json nearest to `file` (at or above its folder), if any. */
function packageNameOf(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readRegularFile(manifest, "utf8")) as { name?: unknown } | null)?.name;
        return typeof name === "string" ? name : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The first-party guard an entry file belongs to by its package's name (any case), if any. */
export function guardPackageOf(entry: string): string | undefined {
  const name = packageNameOf(entry)?.toLowerCase();
  return FIRST_PARTY_GUARDS.find((guard) => guard === name);
}

import { homedir } from "node:os";
import type { ConfigMergeRules } from "@gatehouse/sdk";
import type { z } from "zod";
import { describeZodIssues, formatPath } from "../common/describe-zod-issues.ts";
import { GatehouseError } from "../common/errors.ts";
import { PARSE_ONCE } from "../common/parse-once.ts";
import type { SettingsLocation } from "../config/extension-specs.ts";
import { isWithin, resolveRoot } from "../config/resolve-root.ts";
import { type LevelValue, mergeSection } from "../config/rule-merge.ts";
import { describeIssues } from "../loop/validate-arguments.ts";
import { type ConfigExplanation, type ConfigKeySource, levelLabel } from "./config-explanation.ts";
import { droppedKeyIssues } from "./dropped-keys.ts";
import { nonObjectBelowFloor } from "./section-floor.ts";

/** Where an extension's configuration comes from. */
export type ConfigInput =
  /** Given in code (`createHost({ config })`): used as it is, no levels. */
  | { readonly kind: "inline"; readonly section: unknown; readonly source: string }
  /** The settings hierarchy: each level's own section, strongest first. */
  | {
      readonly kind: "settings";
      readonly levels: readonly LevelValue[];
      /** Managed settings enable or configure the extension: lower levels may only tighten. */
      readonly floor: boolean;
      /**
       * The user's settings enable or configure the extension: the project's files (committed and
       * local) may only tighten what the user's section (with its defaults) sets.
       */
      readonly userFloor?: boolean;
      readonly cwd: string;
    };

type Issue = z.core.$ZodIssue;

/** The settings levels whose files come with the project. */
const PROJECT_FILES: ReadonlySet<string> = new Set(["project", "projectLocal"]);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Reads an extension's configuration: each level's section validated on its own (a typo is that
 * level's error, with its file, line and column), then merged with the extension's rules, then
 * parsed as a whole.
 * Contract: returns the parsed value and where each key came from, or throws GatehouseError
 * `GH_EXTENSION_CONFIG` listing every problem as `file:line:column: config.<name>.<key>: what (level)`.
 */
export function readConfig<S extends z.ZodType>(options: {
  name: string;
  schema: S;
  input: ConfigInput;
  merge: ConfigMergeRules | undefined;
  userOnly?: readonly string[] | undefined;
}): { value: z.output<S>; explanation: ConfigExplanation } {
  const { name, schema, input } = options;
  if (input.kind === "inline") return readInline(name, schema, input);
  const levelProblems = input.levels.flatMap((level) => [
    ...validateLevel(name, schema, level),
    ...projectSetsUserOnly(name, level, options.userOnly ?? []),
  ]);
  if (levelProblems.length > 0) throw configError(name, levelProblems);

  if (!input.levels.every((l) => isObject(l.value))) {
    // A section that is not an object (a schema of one value) has no keys to merge: the strongest
    // wins, once every level below a floor repeats the floor's value.
    const pinned = nonObjectBelowFloor({
      name,
      schema,
      levels: input.levels,
      floor: input.floor,
      userFloor: input.userFloor === true,
    });
    if (pinned.length > 0) throw configError(name, pinned);
    const strongest = input.levels[0] as LevelValue;
    const parsed = schema.safeParse(strongest.value, PARSE_ONCE);
    if (!parsed.success) throw configError(name, validateLevel(name, schema, strongest));
    const from = [
      { level: strongest.level.level, file: strongest.level.file, ...strongest.level.source.locate(["config", name]) },
    ];
    return {
      value: parsed.data,
      explanation: { floor: input.floor, value: parsed.data, keys: [{ key: "(section)", value: parsed.data, from }] },
    };
  }
  const userProblems = input.userFloor ? belowUserFloor(options, input) : [];
  if (userProblems.length > 0) throw configError(name, userProblems);
  const floorSection = input.levels.find((l) => l.level.level === "managed")?.value ?? {};
  const floorParse = input.floor ? schema.safeParse(floorSection, PARSE_ONCE) : undefined;
  const merged = mergeSection(input.levels, {
    name,
    rules: options.merge,
    floor: input.floor,
    floorValues: floorParse?.success ? floorParse.data : floorSection,
    resolveRoot: (root) => resolveRoot(root, { cwd: input.cwd, home: homedir() }),
    isWithin,
  });
  if (merged.problems.length > 0) {
    throw configError(
      name,
      merged.problems.map(
        (p) => `${place(p.at)}: ${formatPath(["config", name, ...p.path])}: ${p.message} (${levelLabel(p.at.level)})`,
      ),
    );
  }
  const parsed = schema.safeParse(merged.value, PARSE_ONCE);
  if (!parsed.success) throw configError(name, mergedIssues(name, parsed.error.issues, input.levels, merged.origins));
  const keys = explainKeys(parsed.data, merged.origins, Object.keys(options.merge ?? {}));
  return { value: parsed.data, explanation: { floor: input.floor, value: parsed.data, keys } };
}

/**
 * What the project's files set looser than the user's own section: a repository cannot switch off,
 * widen or loosen a guard the user enabled for every project (SPEC §10: config that loosens a
 * higher level). Checked with the extension's merge rules, the user's section parsed with its
 * defaults as the floor; managed settings are checked after, against every level.
 */
function belowUserFloor(
  options: { name: string; schema: z.ZodType; merge: ConfigMergeRules | undefined },
  input: { levels: readonly LevelValue[]; cwd: string },
): string[] {
  const levels = input.levels.filter((l) => l.level.level === "user" || PROJECT_FILES.has(l.level.level));
  if (!levels.some((l) => PROJECT_FILES.has(l.level.level)) || !levels.every((l) => isObject(l.value))) return [];
  const userSection = levels.find((l) => l.level.level === "user")?.value ?? {};
  const parsed = options.schema.safeParse(userSection, PARSE_ONCE);
  const merged = mergeSection(levels, {
    name: options.name,
    rules: options.merge,
    floor: true,
    floorLevel: "user",
    floorValues: parsed.success ? parsed.data : userSection,
    resolveRoot: (root) => resolveRoot(root, { cwd: input.cwd, home: homedir() }),
    isWithin,
  });
  return merged.problems.map(
    (p) =>
      `${place(p.at)}: ${formatPath(["config", options.name, ...p.path])}: ${p.message} (${levelLabel(p.at.level)})`,
  );
}

function readInline<S extends z.ZodType>(name: string, schema: S, input: { section: unknown; source: string }) {
  const parsed = schema.safeParse(input.section ?? {}, PARSE_ONCE);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => ({ ...issue, path: ["config", name, ...issue.path] }));
    throw new GatehouseError(
      "GH_EXTENSION_CONFIG",
      `Invalid configuration for extension "${name}" in ${input.source}: ${describeIssues(where, { config: { [name]: input.section } })}`,
    );
  }
  const from: ConfigKeySource[] = [{ level: "code", file: input.source }];
  const keys = isObject(parsed.data)
    ? Object.entries(parsed.data).map(([key, value]) => ({
        key,
        value,
        from: isObject(input.section) && Object.hasOwn(input.section, key) ? from : [],
      }))
    : [];
  return { value: parsed.data as z.output<S>, explanation: { floor: false, value: parsed.data, keys } };
}

/**
 * One level's section against the schema, alone: unknown keys, wrong types and bad values are that
 * level's problems. A key the level does not set is not its problem (another level may set it);
 * checks that span several keys run on the merged section.
 */
function validateLevel(name: string, schema: z.ZodType, { level, value }: LevelValue): string[] {
  const parsed = schema.safeParse(value, PARSE_ONCE);
  // A key a plain `z.object` would drop is a typo too, whatever the schema's strictness.
  const dropped = droppedKeyIssues(schema, value);
  if (parsed.success && dropped.length === 0) return [];
  // A section that is not an object is judged whole; inside an object, only what this level sets.
  const issues = parsed.success ? [] : parsed.error.issues;
  const own = [
    ...(isObject(value)
      ? issues.filter((issue) => issue.code === "unrecognized_keys" || isSet(value, issue.path))
      : issues),
    ...dropped,
  ];
  if (own.length === 0) return [];
  const prefixed = own.map((issue) => ({ ...issue, path: ["config", name, ...issue.path] }) as Issue);
  return describeZodIssues({ issues: prefixed }, level.source, level.file).map(
    (line) => `${line} (${levelLabel(level.level)})`,
  );
}

/** The `userOnly` keys a project file sets (see `ConfigOptions.userOnly`): each an error of that file. */
function projectSetsUserOnly(name: string, { level, value }: LevelValue, keys: readonly string[]): string[] {
  if (!PROJECT_FILES.has(level.level) || !isObject(value)) return [];
  return keys
    .filter((key) => Object.hasOwn(value, key))
    .map((key) => {
      const at = { file: level.file, ...level.source.locate(["config", name, key]) };
      return `${place(at)}: ${formatPath(["config", name, key])}: may only be set in user or managed settings, not in a file of the project (a repository can commit settings.local.json too): it decides where this extension writes or sends data outside the project (${levelLabel(level.level)})`;
    });
}

function isSet(root: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return false;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return true;
}

/** Issues of the merged section, each placed at the level that provided the value it is about. */
function mergedIssues(
  name: string,
  issues: readonly Issue[],
  levels: readonly LevelValue[],
  origins: ReadonlyMap<string, readonly SettingsLocation[]>,
): string[] {
  return issues.map((issue) => {
    const path = issue.path.filter((s): s is string | number => typeof s !== "symbol");
    let origin: SettingsLocation | undefined;
    for (let n = path.length; n > 0 && origin === undefined; n--) origin = origins.get(path.slice(0, n).join("."))?.[0];
    const strongest = levels[0];
    const fallback = strongest
      ? { level: strongest.level.level, file: strongest.level.file, ...strongest.level.source.locate(["config", name]) }
      : undefined;
    const at = origin ?? fallback;
    const text = `${formatPath(["config", name, ...path])}: ${issue.message}`;
    return at ? `${place(at)}: ${text} (${levelLabel(at.level)})` : text;
  });
}

function explainKeys(
  value: unknown,
  origins: ReadonlyMap<string, readonly SettingsLocation[]>,
  ruled: readonly string[],
) {
  const keys: { key: string; value: unknown; from: ConfigKeySource[] }[] = [];
  const covered = new Set<string>();
  for (const [path, from] of origins) {
    covered.add(path.split(".")[0] as string);
    keys.push({ key: path, value: valueAt(value, path.split(".")), from: [...from] });
  }
  const unset = ruled.filter((key) => !isObject(value) || !Object.hasOwn(value, key));
  const present = isObject(value) ? Object.keys(value) : [];
  for (const key of [...present, ...unset]) {
    if (covered.has(key)) continue;
    covered.add(key);
    keys.push({ key, value: isObject(value) ? value[key] : undefined, from: [] });
  }
  return keys.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
}

function place(at: { file: string; line: number; column: number }): string {
  return `${at.file}:${at.line}:${at.column}`;
}

function configError(name: string, problems: readonly string[]): GatehouseError {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return new GatehouseError(
    "GH_EXTENSION_CONFIG",
    [`Invalid configuration for extension "${name}" (${count}):`, ...problems].join("\n  "),
  );
}

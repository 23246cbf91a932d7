import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { PARSE_ONCE } from "../common/parse-once.ts";
import type { LevelValue } from "../config/rule-merge.ts";
import type { SettingsLevelName } from "../config/settings-levels.ts";
import { levelLabel } from "./config-explanation.ts";

/** The settings levels whose files come with the project. */
const PROJECT_FILES: ReadonlySet<SettingsLevelName> = new Set(["project", "projectLocal"]);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** A level whose section sets the floor, and the levels held to it. */
interface Floor {
  level: "managed" | "user";
  below: (level: SettingsLevelName) => boolean;
}

/**
 * The problems of a section that is not an object (`"config": { "guard": false }`, or a schema of one
 * value) under a floor. Such a section has no keys for the merge rules to hold, and the strongest
 * level's value would replace the floor's whole: a project's `false` switched off a guard that
 * managed or user settings enable. Below a floor it is therefore pinned: a lower level may only
 * repeat the floor's value (its section, or the schema's default when it sets none).
 * Contract: `levels` are strongest first and only those with a section; `floor` means managed
 * settings enable or configure the extension (every other level is held), `userFloor` that the
 * user's do (the project's two files are held). Returns one `file:line:column: …` line per level
 * that differs; empty when every section is an object (the key-by-key merge applies) or no floor does.
 */
export function nonObjectBelowFloor(options: {
  name: string;
  schema: z.ZodType;
  levels: readonly LevelValue[];
  floor: boolean;
  userFloor: boolean;
}): string[] {
  const { name, schema, levels } = options;
  if (levels.every((l) => isObject(l.value))) return [];
  const floors: Floor[] = [];
  if (options.floor) floors.push({ level: "managed", below: (level) => level !== "managed" });
  if (options.userFloor) floors.push({ level: "user", below: (level) => PROJECT_FILES.has(level) });
  const problems: string[] = [];
  for (const floor of floors) {
    const own = levels.find((l) => l.level.level === floor.level);
    const expected = parsed(schema, own?.value);
    const words = floor.level === "managed" ? "managed settings" : "user settings";
    for (const { level, value } of levels) {
      if (!floor.below(level.level) || isDeepStrictEqual(parsed(schema, value), expected)) continue;
      const { line, column } = level.source.locate(["config", name]);
      problems.push(
        `${level.file}:${line}:${column}: config.${name}: ${JSON.stringify(value)} replaces the whole section that ${words} ${own ? "set" : "leave at its default"} (${JSON.stringify(expected)}): a section that is not an object has no keys to merge, so below ${words} a level may only repeat it (${levelLabel(level.level)})`,
      );
    }
  }
  return problems;
}

/** A section as the extension would read it (its defaults applied), or the raw value when it does not parse. */
function parsed(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value, PARSE_ONCE);
  return result.success ? result.data : value;
}

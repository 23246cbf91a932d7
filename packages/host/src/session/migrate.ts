import type { SessionEntry } from "./session-format.ts";

/**
 * Upgrades one entry from an older format version to the current one.
 * The migration path: each version step is a function here; version 1 is the first format, so
 * there is nothing to convert yet. Entries of unknown types pass through untouched in every step.
 */
const STEPS: Record<number, (entry: SessionEntry) => SessionEntry> = {};

/** Applies every step from `fromVersion` up to the current version. */
export function migrateEntry(entry: SessionEntry, fromVersion: number): SessionEntry {
  let current = entry;
  for (let version = fromVersion; STEPS[version]; version++)
    current = (STEPS[version] as (e: SessionEntry) => SessionEntry)(current);
  return current;
}

import type { Message } from "@gatehouse/sdk";

/** The session file format version this build writes; older versions are migrated on read. */
export const SESSION_VERSION = 1;

/** The first line of every session file. */
export interface SessionHeader {
  type: "session";
  version: number;
  id: string;
  cwd: string;
  created: string;
}

/** Fields every entry line carries. */
export interface EntryBase {
  id: string;
  /** The entry this one follows in the tree; null for the first entry of a session. */
  parentId: string | null;
  timestamp: string;
}

/** A transcript message, persisted exactly as the model saw (or will see) it. */
export interface MessageEntry extends EntryBase {
  type: "message";
  message: Message;
  /** Set on tool results the host synthesized for tool calls whose result was never recorded. */
  synthetic?: true;
}

/** Replaces everything on the path before `firstKeptEntryId` with `summary` in the model's context. */
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
}

/** Moves the leaf to an earlier entry: later appends continue from there. */
export interface BranchEntry extends EntryBase {
  type: "branch";
  targetId: string;
}

/** A name for an entry, e.g. to branch from it later. */
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label: string;
}

/** Extension data: kept in the tree, never sent to the model. */
export interface CustomEntry extends EntryBase {
  type: "custom";
  extension: string;
  data: unknown;
}

/** The model used from this point on. */
export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  model: string;
}

/** An entry of a type this build does not know (written by a newer version): kept, never dropped. */
export interface UnknownEntry extends EntryBase {
  type: string;
  [key: string]: unknown;
}

/** Every entry type this build understands. */
export type KnownEntry = MessageEntry | CompactionEntry | BranchEntry | LabelEntry | CustomEntry | ModelChangeEntry;

/** Any entry line of a session file. */
export type SessionEntry = KnownEntry | UnknownEntry;

const KNOWN = new Set(["message", "compaction", "branch", "label", "custom", "model_change"]);

/** True for entry types this build understands. */
export function isKnownEntry(entry: SessionEntry): entry is KnownEntry {
  return KNOWN.has(entry.type);
}

/**
 * Entries that move the leaf when appended. A branch moves it to its target; a label leaves it
 * where it was; an unknown entry is treated like a label (kept in order, never on the path).
 */
export function movesLeaf(entry: SessionEntry): boolean {
  return (
    entry.type === "message" || entry.type === "compaction" || entry.type === "custom" || entry.type === "model_change"
  );
}

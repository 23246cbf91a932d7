import { randomUUID } from "node:crypto";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import type { Message } from "@gatehouse/sdk";
import { GatehouseError } from "../common/errors.ts";
import { type BuiltContext, buildContext } from "./build-context.ts";
import { compactionBoundary } from "./compaction.ts";
import { readSession } from "./read-session.ts";
import {
  type BranchEntry,
  type CompactionEntry,
  type CustomEntry,
  type EntryBase,
  type LabelEntry,
  type MessageEntry,
  type ModelChangeEntry,
  SESSION_VERSION,
  type SessionEntry,
  type SessionHeader,
} from "./session-format.ts";
import { SessionTree } from "./session-tree.ts";
import { type SessionFsync, SessionWriter } from "./session-writer.ts";

/** Options for opening or creating a session file. */
export interface SessionOptions {
  /** The project directory recorded in a new session's header. */
  cwd?: string;
  fsync?: SessionFsync;
  /** Creates ids; injectable for deterministic tests. */
  newId?: () => string;
  now?: () => Date;
  /** Open without repairing, migrating or appending (for `session show`). */
  readOnly?: boolean;
}

type Draft<E extends SessionEntry> = Omit<E, keyof EntryBase>;

/**
 * An append-only JSONL session: a header line, then entries forming a tree by `parentId`, with
 * a persisted current leaf. What `context()` returns is exactly what the next model request gets.
 * Contract: appends are O(1) and written at once (one whole line each); `open` repairs a torn last
 * line by cutting it off (reported in `warnings`), refuses corrupt lines with their line number,
 * keeps unknown entry types, and rewrites a file of an older format version in the current one.
 */
export class Session {
  readonly file: string;
  readonly header: SessionHeader;
  /** What opening had to repair or could not use, for a person. */
  readonly warnings: string[] = [];
  readonly #tree: SessionTree;
  readonly #writer: SessionWriter;
  readonly #newId: () => string;
  readonly #now: () => Date;
  readonly #readOnly: boolean;
  /** Where a torn last line starts: cut off before the next append, so only a run that records anything repairs. */
  #tornAt: number | undefined;

  private constructor(file: string, header: SessionHeader, entries: SessionEntry[], options: SessionOptions) {
    this.file = file;
    this.header = header;
    this.#tree = new SessionTree(entries);
    this.#writer = new SessionWriter(file, options.fsync ?? "turn");
    this.#newId = options.newId ?? (() => randomUUID().slice(0, 8));
    this.#now = options.now ?? (() => new Date());
    this.#readOnly = options.readOnly === true;
  }

  /** Starts a new session file; refuses to overwrite an existing one. */
  static create(file: string, options: SessionOptions = {}): Session {
    if (existsSync(file))
      throw new GatehouseError("GH_SESSION", `Session ${file} already exists; open it to continue it.`);
    const now = options.now?.() ?? new Date();
    const header: SessionHeader = {
      type: "session",
      version: SESSION_VERSION,
      id: randomUUID(),
      cwd: options.cwd ?? process.cwd(),
      created: now.toISOString(),
    };
    const session = new Session(file, header, [], options);
    session.#writer.append(JSON.stringify(header));
    session.#writer.sync();
    return session;
  }

  /** Opens an existing session file for reading and appending. */
  static open(file: string, options: SessionOptions = {}): Session {
    const read = readSession(file);
    const session = new Session(file, read.header, read.entries, options);
    if (read.tornTail) {
      session.warnings.push(
        `${file}:${read.tornTail.line}: ignored an incomplete last line (${read.tornTail.bytes} bytes; the process stopped mid-write)`,
      );
      session.#tornAt = read.validBytes;
    }
    if (read.migrated && !session.#readOnly) session.#rewrite();
    return session;
  }

  /** Opens the file if it exists, else creates it. */
  static openOrCreate(file: string, options: SessionOptions = {}): Session {
    return existsSync(file) ? Session.open(file, options) : Session.create(file, options);
  }

  /** The id new entries attach to. */
  get leafId(): string | null {
    return this.#tree.leaf;
  }

  /** Every entry in file order (unknown types included). */
  entries(): readonly SessionEntry[] {
    return this.#tree.entries();
  }

  /** One entry by id. */
  get(id: string): SessionEntry | undefined {
    return this.#tree.get(id);
  }

  /** Appends a transcript message at the leaf. */
  appendMessage(message: Message, extra: { synthetic?: true } = {}): MessageEntry {
    return this.#append<MessageEntry>({ type: "message", message, ...extra });
  }

  /** Appends extension data (never sent to the model). */
  appendCustom(extension: string, data: unknown): CustomEntry {
    return this.#append<CustomEntry>({ type: "custom", extension, data });
  }

  /** Records a model switch. */
  appendModelChange(model: string): ModelChangeEntry {
    return this.#append<ModelChangeEntry>({ type: "model_change", model });
  }

  /** Names an entry. */
  label(targetId: string, label: string): LabelEntry {
    this.#mustExist(targetId);
    return this.#append<LabelEntry>({ type: "label", targetId, label });
  }

  /** Moves the leaf to an earlier entry; persisted, so it survives even without a later append. */
  branch(targetId: string): BranchEntry {
    this.assertBranchable(targetId);
    return this.#append<BranchEntry>({ type: "branch", targetId });
  }

  /**
   * Refuses a branch target that does not exist, or that ends in the middle of a tool-call batch:
   * an assistant message whose calls have no result on the path to it (the target itself, or one
   * of its first results). Continuing from there would leave calls unanswered or answer them with a
   * made-up error; the message names the entries to branch onto instead.
   * Contract: reads only; throws GH_SESSION.
   */
  assertBranchable(targetId: string): void {
    this.#mustExist(targetId);
    const path = this.#tree.pathTo(targetId);
    const messages = path.filter((e): e is MessageEntry => e.type === "message");
    let at = messages.length - 1;
    while (at >= 0 && (messages[at] as MessageEntry).message.role === "toolResult") at--;
    const owner = messages[at];
    if (owner?.message.role !== "assistant") return;
    const open = buildContext(path).orphans.filter((o) => o.entryId === owner.id);
    if (open.length === 0) return;
    const calls = open.map((o) => `${o.toolCallId} (${o.toolName})`).join(", ");
    const answers = this.#tree
      .entries()
      .filter((e) => e.parentId !== null && e.type === "message" && (e as MessageEntry).message.role === "toolResult");
    const resultsOf = (id: string): string | undefined => answers.find((e) => e.parentId === id)?.id;
    let last: string | undefined;
    for (let next = resultsOf(owner.id); next !== undefined; next = resultsOf(next)) last = next;
    const onto = [
      ...(last !== undefined && last !== targetId ? [`${last} (after its results)`] : []),
      ...(owner.parentId !== null ? [`${owner.parentId} (before the model asked)`] : []),
    ];
    throw new GatehouseError(
      "GH_SESSION",
      `Cannot branch onto ${targetId}: the assistant message ${owner.id} asks for tool calls ${calls} that have no result on that path${onto.length > 0 ? `; branch onto ${onto.join(" or ")}` : ""}.`,
    );
  }

  /**
   * Summarises the context before the last `keepLast` messages: appends a compaction entry; the
   * file keeps every entry, the model's context shrinks. The kept part never starts with a tool
   * result separated from its call.
   */
  compact(options: { summary: string; keepLast: number }): CompactionEntry | undefined {
    const firstKept = compactionBoundary(this.#tree.pathTo(this.#tree.leaf), options.keepLast);
    if (!firstKept) return undefined;
    return this.#append<CompactionEntry>({ type: "compaction", summary: options.summary, firstKeptEntryId: firstKept });
  }

  /** What the next model request receives from the current leaf (or from `leafId`). */
  context(leafId: string | null = this.#tree.leaf): BuiltContext {
    return buildContext(this.#tree.pathTo(leafId));
  }

  /** The entries from the root to the leaf. */
  path(leafId: string | null = this.#tree.leaf): SessionEntry[] {
    return this.#tree.pathTo(leafId);
  }

  /** Flushes to disk (the host calls this at every turn end). */
  sync(): void {
    this.#writer.sync();
  }

  /** Syncs and releases the file. */
  close(): void {
    this.#writer.close();
  }

  #mustExist(id: string): void {
    if (!this.#tree.get(id)) throw new GatehouseError("GH_SESSION", `No entry ${id} in session ${this.file}.`);
  }

  #append<E extends SessionEntry>(draft: Draft<E>): E {
    if (this.#readOnly) throw new GatehouseError("GH_SESSION", `Session ${this.file} was opened read-only.`);
    if (this.#tornAt !== undefined) {
      this.#writer.truncateTo(this.#tornAt);
      this.#tornAt = undefined;
    }
    let id = this.#newId();
    while (this.#tree.get(id)) id = this.#newId();
    const entry = { id, parentId: this.#tree.leaf, timestamp: this.#now().toISOString(), ...draft } as unknown as E;
    this.#writer.append(JSON.stringify(entry));
    this.#tree.add(entry);
    return entry;
  }

  /** Rewrites the whole file in the current format (after a migration), atomically; unknown entries kept. */
  #rewrite(): void {
    const lines = [this.header, ...this.#tree.entries()].map((e) => JSON.stringify(e));
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${lines.join("\n")}\n`);
    renameSync(tmp, this.file);
    this.warnings.push(`${this.file}: migrated to session format version ${SESSION_VERSION}`);
  }
}

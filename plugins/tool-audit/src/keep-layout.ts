/** One instance per class, kept for the life of the process (see `keepLayout`). */
const kept = new Map<string, object>();

/**
 * Keeps the latest instance of a class (under `kind`) alive, so the class's object layout outlives
 * the sessions that made it.
 * Why: V8 holds the layout an instance reaches by adding its fields only weakly. An audit session
 * is opened inside a run (at agent_start), after the previous one was closed; when a full GC runs
 * in between, the layout dies, the optimised code built on it is thrown away, and every run starts
 * over in slower tiers. One idle instance (a closed one will do) keeps the layout and that code.
 * Contract: returns `instance`; keeps at most one instance per `kind`, replacing the previous one.
 */
export function keepLayout<T extends object>(kind: string, instance: T): T {
  kept.set(kind, instance);
  return instance;
}

/** Instances kept for the life of the process; see `keepShape`. */
const kept: object[] = [];

/**
 * Keeps one instance of a class alive for good, so that the class's object layout outlives every
 * instance a run makes.
 * Why: V8 holds the layout an instance reaches by adding its fields (a map transition) only
 * weakly. When the last instance dies, the next full GC drops that layout and throws away all the
 * optimised code that relied on it, so the next run of a new host starts slow again, once per
 * such class. One idle instance, built like the real ones, keeps the layout and that code alive.
 * Contract: returns `instance`; call it once per class, at module load, with an instance whose
 * fields hold the same kinds of values as real ones (numbers stay numbers, objects objects).
 */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}

/** "Did you mean": the candidate nearest to a mistyped word. */

/** Edit distance with adjacent transpositions (optimal string alignment), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...new Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[s.length]![t.length]!;
}

/**
 * The candidate closest to `word`, or undefined when none is close enough to be a typo of it.
 * Contract: a candidate that starts with `word` (an abbreviation, 2+ characters) or is within
 * max(1, ⌊length/3⌋) edits counts; the smallest distance wins, then the order of `candidates`.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  if (word === "") return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const abbreviation = word.length >= 2 && name.toLowerCase().startsWith(word.toLowerCase());
    const distance = abbreviation ? 0.5 : editDistance(word, name);
    const limit = Math.max(1, Math.floor(Math.max(word.length, name.length) / 3));
    if (distance > limit) continue;
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

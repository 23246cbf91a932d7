/** `1 session`, `2 sessions`, `3 entries`: a count with its noun in the right number. */
export const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

/**
 * The first key that appears twice in one object of a JSON text (already valid JSON), with its
 * 1-based line; `undefined` when there is none. `JSON.parse` keeps the last value silently, so a
 * command that rewrites the file would drop the others without a word.
 */
export function duplicateKey(text: string): { key: string; line: number } | undefined {
  const stack: { keys: Set<string> | undefined; expectKey: boolean }[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    else if (c === "{") stack.push({ keys: new Set(), expectKey: true });
    else if (c === "[") stack.push({ keys: undefined, expectKey: false });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
    } else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const top = stack.at(-1);
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { key, line };
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    }
  }
  return undefined;
}

/**
 * A view's rows as blocks (a block starts at a row that is not indented; an empty row stands
 * alone), with the calls of each
 * turn in text order: parallel calls finish in any order, and the view prints each one when it
 * finishes, so two runs of the same script may list a turn's calls differently.
 */
export function callBlocks(rows: readonly string[]): string[] {
  const out: string[][] = [];
  let open = false;
  for (const row of rows) {
    // An empty row is a block of its own (it separates turns), so it never sticks to a call.
    if (!open || row === "" || !row.startsWith(" ")) out.push([row]);
    else (out.at(-1) as string[]).push(row);
    open = row !== "";
  }
  const sorted: string[] = [];
  let calls: string[] = [];
  const flush = () => {
    sorted.push(...calls.sort());
    calls = [];
  };
  for (const text of out.map((b) => b.join("\n"))) {
    if (/^[✓✗⊘]/.test(text)) calls.push(text);
    else {
      flush();
      sorted.push(text);
    }
  }
  flush();
  return sorted;
}

/** One file an apply_patch envelope touches. */
export interface PatchTarget {
  op: "add" | "update" | "delete" | "move";
  path: string;
}

/** File headers, spelled leniently (any spacing, any case): whatever a lenient parser could take for one counts. */
// `s`: a path may hold U+2028/U+2029, which JavaScript's `.` does not match and Codex keeps.
const HEADERS: readonly [RegExp, PatchTarget["op"]][] = [
  [/^\*{3}\s*add\s+file\s*:(.*)$/is, "add"],
  [/^\*{3}\s*update\s+file\s*:(.*)$/is, "update"],
  [/^\*{3}\s*delete\s+file\s*:(.*)$/is, "delete"],
  [/^\*{3}\s*move\s+to\s*:(.*)$/is, "move"],
];

/**
 * Trims what JavaScript or Rust takes for white space at either end: Codex trims its lines with
 * Rust's `str::trim`, which also removes U+0085 (NEL), where JavaScript's `trim` does not.
 */
function trimAny(text: string): string {
  return text.replace(/^[\s\u0085]+|[\s\u0085]+$/g, "");
}

/** The envelope text of a Codex `apply_patch` call: `command` as a string, or the argv form's patch. */
export function patchText(command: unknown): string | undefined {
  if (typeof command === "string") return command;
  if (Array.isArray(command)) {
    const found = command.find((part) => typeof part === "string" && part.includes("*** Begin Patch"));
    return typeof found === "string" ? found : undefined;
  }
  return undefined;
}

/**
 * The files a Codex patch envelope adds, updates, deletes or moves to.
 * Contract: over-approximates — any line that is a file header once leading whitespace is removed
 * counts (a lenient parser could take it as one), and paths are trimmed (a path that differs only
 * by surrounding spaces is checked as the trimmed one, which policy matches). Throws when the text
 * holds no file operation or does not begin with `*** Begin Patch`: what it touches cannot be told,
 * so the caller refuses it.
 */
export function patchTargets(envelope: string): PatchTarget[] {
  const lines = envelope.split(/\r?\n|\r/);
  const first = lines.findIndex((line) => trimAny(line) !== "");
  // The envelope may come inside a here-document (`apply_patch <<'EOF'`): start at its marker.
  const begin = lines.findIndex((line) => trimAny(line) === "*** Begin Patch");
  if (begin < 0 || (first !== begin && !/apply_patch|<</.test(lines[first] ?? ""))) {
    throw new Error("the patch does not begin with *** Begin Patch");
  }
  const targets: PatchTarget[] = [];
  for (const line of lines.slice(begin + 1)) {
    const trimmed = trimAny(line);
    for (const [header, op] of HEADERS) {
      const match = header.exec(trimmed);
      if (!match) continue;
      const path = trimAny(match[1] ?? "");
      if (path === "") throw new Error(`"${trimmed}" names no file`);
      targets.push({ op, path });
    }
  }
  if (targets.length === 0) throw new Error("the patch names no file");
  return targets;
}

import { z } from "zod";
import type { JsonSource } from "./json-source.ts";

type Issue = z.core.$ZodIssue;
type Segment = PropertyKey;

/**
 * A strict zod object whose unknown-key error names the keys that are allowed, so a typo in a
 * hand-written file gets a message a person can act on.
 * Contract: behaves as `z.strictObject(shape)`; only the unrecognized-keys message differs.
 */
export function strictObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const allowed = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `unknown key (allowed keys: ${allowed})` : undefined),
  });
}

/**
 * Renders zod issues against the JSON source they came from, one line per problem, in source order:
 * `file:line:column: field.path: what was expected, what was found`.
 * Contract: structural issues (types, enum values, discriminators, bounds) are worded from the issue
 * data and the actual value in `source`; other issues keep the message the schema gave them.
 */
export function describeZodIssues(
  error: { readonly issues: readonly Issue[] },
  source: JsonSource,
  file: string,
): string[] {
  const lines: { line: number; column: number; text: string }[] = [];
  for (const issue of error.issues) {
    for (const { path, text } of explain(issue, source.value)) {
      const segments = path.filter((s): s is string | number => typeof s !== "symbol");
      const { line, column } = source.locate(segments);
      lines.push({ line, column, text: `${file}:${line}:${column}: ${formatPath(path)}: ${text}` });
    }
  }
  lines.sort((a, b) => a.line - b.line || a.column - b.column);
  return lines.map((l) => l.text);
}

/**
 * Formats a value path the way a person writes it: `turns[0].content[1].name`.
 * Contract: keys that are not identifiers are quoted (`config["tool-audit"]`); `[]` is `(top level)`.
 */
export function formatPath(path: readonly Segment[]): string {
  if (path.length === 0) return "(top level)";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_$][\w$]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

function explain(issue: Issue, root: unknown): { path: readonly Segment[]; text: string }[] {
  const path = issue.path;
  const actual = valueAt(root, path);
  switch (issue.code) {
    case "invalid_type":
      // JSON numbers too large for a double (1e400) parse to Infinity, which zod reports as "not a number".
      if (!actual.missing && typeof actual.value === "number" && !Number.isFinite(actual.value)) {
        return [
          { path, text: `expected a finite ${typeName(issue.expected)}, received ${actual.value} (out of range)` },
        ];
      }
      return [
        { path, text: `${actual.missing ? "missing, " : ""}expected ${typeName(issue.expected)}${received(actual)}` },
      ];
    case "invalid_value":
      return [{ path, text: `${missingPrefix(actual)}expected ${oneOf(issue.values)}${received(actual, true)}` }];
    case "unrecognized_keys":
      return issue.keys.map((key) => ({ path: [...path, key], text: issue.message }));
    case "too_small":
    case "too_big":
      return [{ path, text: bound(issue, actual) }];
    case "invalid_union": {
      const { discriminator, options } = issue as { discriminator?: string; options?: readonly unknown[] };
      if (discriminator === undefined || options === undefined) return [{ path, text: unionText(issue) }];
      const at = path[path.length - 1] === discriminator ? path : [...path, discriminator];
      const value = valueAt(root, at);
      return [{ path: at, text: `${missingPrefix(value)}expected ${oneOf(options)}${received(value, true)}` }];
    }
    default:
      return [{ path, text: issue.message }];
  }
}

type Actual = { missing: true } | { missing: false; value: unknown };

function valueAt(root: unknown, path: readonly Segment[]): Actual {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return { missing: true };
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return { missing: false, value: current };
}

function received(actual: Actual, showValue = false): string {
  if (actual.missing) return "";
  const v = actual.value;
  if (showValue && (typeof v === "string" || typeof v === "number" || typeof v === "boolean")) {
    return `, received ${preview(v)}`;
  }
  return `, received ${kindOf(v)}`;
}

function missingPrefix(actual: Actual): string {
  return actual.missing ? "missing, " : "";
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function typeName(expected: string): string {
  if (expected === "record") return "object";
  if (expected === "int") return "integer";
  return expected;
}

function preview(value: unknown): string {
  const text =
    typeof value === "number" && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function oneOf(values: readonly unknown[]): string {
  const listed = values.map(preview);
  return listed.length === 1 ? (listed[0] as string) : `one of ${listed.join(", ")}`;
}

function bound(issue: Extract<Issue, { code: "too_small" | "too_big" }>, actual: Actual): string {
  const small = issue.code === "too_small";
  const limit = small ? (issue as { minimum: unknown }).minimum : (issue as { maximum: unknown }).maximum;
  const limitText = String(limit);
  switch (issue.origin) {
    case "number":
    case "int":
    case "bigint": {
      const op = small ? (issue.inclusive ? ">=" : ">") : issue.inclusive ? "<=" : "<";
      return `must be ${op} ${limitText}${received(actual, true)}`;
    }
    case "string":
      return `must be ${small ? "at least" : "at most"} ${plural(limitText, "character")} long`;
    case "array":
    case "set":
      return `must have ${small ? "at least" : "at most"} ${plural(limitText, "item")}`;
    default:
      return issue.message;
  }
}

function plural(count: string, noun: string): string {
  return `${count} ${noun}${count === "1" ? "" : "s"}`;
}

function unionText(issue: Extract<Issue, { code: "invalid_union" }>): string {
  const branches = issue.errors.map((branch) =>
    branch.map((inner) => `${inner.path.length ? `${formatPath(inner.path)}: ` : ""}${inner.message}`).join(", "),
  );
  const detail = branches.filter(Boolean).join(" | ");
  return `matches none of the allowed forms${detail ? ` (${detail})` : ""}`;
}

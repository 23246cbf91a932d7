import type { AnyToolDefinition } from "@gatehouse/sdk";
import type { z } from "zod";
import type { Validation } from "./types.ts";

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === "invalid_type") {
    const value = valueAt(input, issue.path);
    if (value === undefined) return `required (expected ${issue.expected})`;
    return `expected ${issue.expected}, received ${kindOf(value)}`;
  }
  return issue.message.replace(/^Invalid input: /, "");
}

/**
 * Renders zod issues as one clause per field, in words a model can act on:
 * `path: expected string, received number; content: required (expected string)`.
 * Pass the validated input to tell missing fields from wrong ones.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input?: unknown): string {
  return issues
    .map((issue) => {
      const where = issue.path.length === 0 ? "arguments" : issue.path.map(String).join(".");
      return `${where}: ${describeIssue(issue, input)}`;
    })
    .join("; ");
}

/**
 * Validates raw arguments against a tool's schema.
 * Contract: on success `value` is a fresh object owned by the caller (zod copies objects).
 */
export function validateArguments(tool: AnyToolDefinition, input: unknown): Validation {
  const parsed = tool.parameters.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
  return { ok: false, message: describeIssues(parsed.error.issues, input) };
}

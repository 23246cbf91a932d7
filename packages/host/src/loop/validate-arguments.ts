import type { AnyToolDefinition } from "@gatehouse/sdk";
import type { z } from "zod";
import type { Validation } from "./types.ts";

/** Renders zod issues as one line per field, in words a model can act on. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.length === 0 ? "arguments" : issue.path.map(String).join(".");
      return `${where}: ${issue.message}`;
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
  return { ok: false, message: describeIssues(parsed.error.issues) };
}

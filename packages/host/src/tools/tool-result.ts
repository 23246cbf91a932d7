import type { ToolResult } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";

/** A successful result carrying one text block. */
export function textResult<TDetails>(text: string, details: TDetails): ToolResult<TDetails> {
  return { content: [{ type: "text", text }], details };
}

/** A failed result carrying one text block; the text must name the path or command involved. */
export function failureResult<TDetails>(text: string, details: TDetails): ToolResult<TDetails> {
  return { content: [{ type: "text", text }], details, isError: true };
}

const REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "the name is too long",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
  EMFILE: "too many open files; try again",
};

function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/**
 * A message a model can act on for a failure while touching `displayPath`.
 * Contract: Node system errors become "Cannot <action> <path>: <reason>"; a missing path also
 * names where it was resolved to (the usual cause is a wrong working directory); any other error
 * keeps its own message, which tools write to name the path already.
 */
export function describeFailure(options: {
  action: string;
  displayPath: string;
  absPath?: string | undefined;
  error: unknown;
}): string {
  const { action, displayPath, absPath, error } = options;
  if (!isSystemError(error)) return errorMessage(error);
  const reason = REASONS[error.code] ?? `${error.code}: ${error.message}`;
  const where = error.code === "ENOENT" && absPath !== undefined && absPath !== displayPath ? ` (${absPath})` : "";
  return `Cannot ${action} ${displayPath}${where}: ${reason}.`;
}

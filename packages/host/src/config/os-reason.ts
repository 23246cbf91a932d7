/** `ENOENT: no such file or directory, open 'x'` → `no such file or directory (ENOENT)`. */
export function osReason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  const described = /^[A-Z0-9_]+: ([^,]+)/.exec(text)?.[1];
  if (typeof code === "string" && described !== undefined) return `${described} (${code})`;
  return text;
}

/**
 * Bad usage of a command (unknown flag, missing value, stray argument): exit 2 with a message that
 * says what to type instead. Its own class, not the host's error, so the help path loads no host code.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

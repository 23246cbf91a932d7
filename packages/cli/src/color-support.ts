/**
 * Whether a stream gets colours: the conventions a user expects, in Node's own order.
 * `FORCE_COLOR` (1, 2, 3, true or empty) forces them on — even into a pipe, and over `NO_COLOR` —
 * and any other value of it turns them off; then `NO_COLOR` (https://no-color.org, any non-empty
 * value) and `NODE_DISABLE_COLORS` turn them off; `TERM=dumb` too; otherwise a terminal gets
 * colours and a pipe or file does not.
 */

/** The environment variables the decision reads. */
export interface ColorEnv {
  FORCE_COLOR?: string | undefined;
  NO_COLOR?: string | undefined;
  NODE_DISABLE_COLORS?: string | undefined;
  TERM?: string | undefined;
}

const FORCING = new Set(["", "1", "2", "3", "true"]);

/**
 * Decides colours for one stream.
 * Contract: pure; reads only the four variables above and `isTTY`.
 */
export function colorEnabled(options: { env: ColorEnv; isTTY: boolean | undefined }): boolean {
  const { env } = options;
  if (env.FORCE_COLOR !== undefined) return FORCING.has(env.FORCE_COLOR);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.NODE_DISABLE_COLORS !== undefined && env.NODE_DISABLE_COLORS !== "") return false;
  if (env.TERM === "dumb") return false;
  return options.isTTY === true;
}

/** Columns of a terminal stream; undefined for a pipe, a file, or a terminal that reports no size. */
export function terminalColumns(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  if (stream.isTTY !== true) return undefined;
  const columns = stream.columns;
  return columns !== undefined && Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

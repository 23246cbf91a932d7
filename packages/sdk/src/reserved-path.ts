/** Options of `api.reservePath`. */
export interface ReservePathOptions {
  /** Why the agent may not touch it, in words a model can act on ("it is the team's audit key"). */
  why: string;
  /** Also deny reads (a key, a secret); default false: the agent may read it but not change it. */
  hide?: boolean;
}

/** A file or folder Gatehouse or an extension keeps for itself: guards deny the agent's writes to it. */
export interface ReservedPath {
  /** The absolute path, with links resolved when it exists. */
  readonly path: string;
  /** Reads are denied too. */
  readonly hide: boolean;
  /** Why, for the refusal's reason. */
  readonly why: string;
  /** Who reserved it: an extension's name, or "gatehouse" for the host's own files. */
  readonly by: string;
}

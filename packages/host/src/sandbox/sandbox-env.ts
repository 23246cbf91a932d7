/**
 * Name parts that mark a variable as a credential (`OPENAI_API_KEY`, `GH_TOKEN`, `PGPASSWORD`,
 * `DB_PASS`, `GPG_PASSPHRASE`, `SSH_AUTH_SOCK`, `GITHUB_PAT`, `SENTRY_DSN`).
 */
const SECRET_PART = /(KEY|SECRET|TOKEN|PASS|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?)$/i;
const SECRET_WHOLE_PART = /^(AUTH|COOKIE|SESSION|PAT|DSN)$/i;
/** A URL with a password in it (`postgres://user:pw@host/db`), whatever the variable is called. */
const URL_CREDENTIALS = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/** True when an environment variable's name says it holds a credential. */
export function isSecretName(name: string): boolean {
  return name.split("_").some((part) => SECRET_PART.test(part) || SECRET_WHOLE_PART.test(part));
}

/** True when a variable holds a credential: by its name, or a value that is a URL with a password. */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  return isSecretName(name) || (value !== undefined && URL_CREDENTIALS.test(value));
}

/** Where tools keep caches in the sandbox: the home is read-only there, the private /tmp is not. */
export const SANDBOX_CACHES: Readonly<Record<string, string>> = {
  XDG_CACHE_HOME: "/tmp/.cache",
  npm_config_cache: "/tmp/.cache/npm",
};

/**
 * The environment a sandboxed command gets: the host's, without variables whose names mark them
 * as credentials (API keys, tokens, passwords, agent sockets) or whose values are URLs with a
 * password (`DATABASE_URL=postgres://u:pw@h/db`), and with caches (npm, and whatever
 * follows XDG_CACHE_HOME: pip, go build) in the command's private /tmp, since the home is read-only.
 * The host needs the credentials to talk to its model provider; a command the model wrote does
 * not, and printing one would put it in the transcript.
 * Contract: a new object; `GIT_AUTHOR_NAME` and the like stay (only whole name parts count).
 */
export function sandboxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isSecretVariable(name, value)) out[name] = value;
  return { ...out, ...SANDBOX_CACHES };
}
